/**
 * Exact value of a Kubernetes `resource.Quantity`: `num / den`, with `den` a positive power
 * of ten. No floating point anywhere, so `0.1 + 0.2` style drift cannot creep in.
 *
 * `format` is the family the text was written in (Go's `resource.Format`): binary suffixes
 * (`Ki`..`Ei`) -> "binary"; `e3`/`E3` -> "exponent"; everything else (`n u m "" k M G T P E`)
 * -> "decimal". Formatting keeps the family: `1Gi` never turns into `1G`.
 */
export type QuantityFormat = "binary" | "decimal" | "exponent";

export interface Quantity {
  readonly num: bigint;
  /** Positive power of ten. */
  readonly den: bigint;
  readonly format: QuantityFormat;
}

/** -1, 0 or 1 as `a` is below, equal to or above `b` (format ignored). */
export function compareQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Smallest integer >= n / d (d > 0). */
export function ceilDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n > 0n ? q + 1n : q;
}

/** Largest integer <= n / d (d > 0). */
export function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n ? q - 1n : q;
}
