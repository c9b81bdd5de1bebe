import { parseQuantity } from "./parse-quantity.js";
import { QuantityError } from "./quantity-error.js";
import { ceilDiv, type Quantity } from "./quantity.js";

/** Whole bytes of a quantity, rounded up like Go's `Value()` (`0.5` -> 1). */
export function quantityBytes(q: Quantity): bigint {
  return ceilDiv(q.num, q.den);
}

/** Bytes of a memory quantity text, rounded up (`1Gi` -> 1073741824, `1G` -> 1e9, `129e6` -> 129000000). */
export function memoryBytes(text: string): number {
  const bytes = quantityBytes(parseQuantity(text));
  if (bytes > BigInt(Number.MAX_SAFE_INTEGER) || bytes < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new QuantityError(`memory quantity ${JSON.stringify(text)} is out of range`, text);
  }
  return Number(bytes);
}
