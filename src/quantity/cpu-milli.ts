import { parseQuantity } from "./parse-quantity.js";
import { QuantityError } from "./quantity-error.js";
import { ceilDiv, type Quantity } from "./quantity.js";

/** Millicores of a quantity, rounded up like Go's `MilliValue()` (`0.0001` -> 1). */
export function quantityMilli(q: Quantity): bigint {
  return ceilDiv(q.num * 1000n, q.den);
}

/** Millicores of a CPU quantity text, rounded up (`0.5` -> 500, `1500m` -> 1500, `2` -> 2000). */
export function cpuMilli(text: string): number {
  const milli = quantityMilli(parseQuantity(text));
  if (milli > BigInt(Number.MAX_SAFE_INTEGER) || milli < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new QuantityError(`cpu quantity ${JSON.stringify(text)} is out of range`, text);
  }
  return Number(milli);
}

/** Canonical CPU text for whole millicores: 250 -> `250m`, 1000 -> `1`, 1500 -> `1500m`. */
export function formatCpuMilli(milli: number): string {
  if (!Number.isSafeInteger(milli)) throw new QuantityError(`millicores must be a safe integer, got ${milli}`, String(milli));
  return milli % 1000 === 0 ? `${milli / 1000}` : `${milli}m`;
}
