import { QuantityError } from "./quantity-error.js";
import type { Quantity, QuantityFormat } from "./quantity.js";

/**
 * Grammar (apimachinery `resource.ParseQuantity`):
 *   <quantity> ::= <sign>? <number> <suffix>
 *   <number>   ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
 *   <suffix>   ::= Ki|Mi|Gi|Ti|Pi|Ei | n|u|m|""|k|M|G|T|P|E | (e|E)<sign>?<digits>
 * `K`, `mi`, spaces and empty strings are rejected.
 */
const NUMBER = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/s;
const EXPONENT = /^[eE]([+-]?\d+)$/;
/** Longer than anything a pod spec needs; bounds BigInt work on hostile input. */
const MAX_TEXT_LENGTH = 64;
/** Decimal exponents beyond this are refused (Go caps at int32; nothing real comes close). */
const MAX_EXPONENT = 100;

const DECIMAL_SUFFIX: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIX: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** Parses any quantity the API server accepts. Throws `QuantityError` on anything else. */
export function parseQuantity(text: string): Quantity {
  if (typeof text !== "string") throw new QuantityError(`quantity must be a string, got ${typeof text}`, String(text));
  if (text.length === 0) throw new QuantityError("quantity is empty", text);
  if (text.length > MAX_TEXT_LENGTH) throw new QuantityError(`quantity longer than ${MAX_TEXT_LENGTH} characters`, text);
  const m = NUMBER.exec(text);
  const intDigits = m?.[2] ?? "";
  const fracDigits = m?.[3] ?? "";
  if (!m || intDigits.length + fracDigits.length === 0) {
    throw new QuantityError(`quantity ${JSON.stringify(text)} does not start with a number`, text);
  }
  const sign = m[1] === "-" ? -1n : 1n;
  const suffix = m[4] ?? "";
  let num = sign * BigInt(intDigits + fracDigits);
  let den = 10n ** BigInt(fracDigits.length);
  let format: QuantityFormat;
  const binary = BINARY_SUFFIX[suffix];
  const decimal = DECIMAL_SUFFIX[suffix];
  if (binary !== undefined) {
    format = "binary";
    num *= 1n << BigInt(binary);
  } else if (decimal !== undefined) {
    format = "decimal";
    [num, den] = scaleByPowerOfTen(num, den, decimal);
  } else {
    const e = EXPONENT.exec(suffix);
    if (!e) throw new QuantityError(`quantity ${JSON.stringify(text)} has an unknown suffix ${JSON.stringify(suffix)}`, text);
    const exponent = Number(e[1]);
    if (Math.abs(exponent) > MAX_EXPONENT) throw new QuantityError(`quantity ${JSON.stringify(text)}: exponent out of range`, text);
    format = "exponent";
    [num, den] = scaleByPowerOfTen(num, den, exponent);
  }
  return { num, den, format };
}

function scaleByPowerOfTen(num: bigint, den: bigint, exponent: number): [bigint, bigint] {
  return exponent >= 0 ? [num * 10n ** BigInt(exponent), den] : [num, den * 10n ** BigInt(-exponent)];
}
