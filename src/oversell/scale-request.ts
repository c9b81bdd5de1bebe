import { formatCpuMilli } from "../quantity/cpu-milli.js";
import { formatMemoryBytes } from "../quantity/format-quantity.js";
import { parseQuantity } from "../quantity/parse-quantity.js";
import { floorDiv } from "../quantity/quantity.js";

/** A lowered request: the new text and how much it removed (original rounded up, minus new). */
export interface ScaledRequest {
  readonly text: string;
  readonly removed: bigint;
}

/** Largest unit first; a memory result is a whole multiple of one of these, in the original's family. */
const BINARY_UNITS = [60, 50, 40, 30, 20, 10, 0].map((p) => 1n << BigInt(p));
const DECIMAL_UNITS = [18, 15, 12, 9, 6, 3, 0].map((p) => 10n ** BigInt(p));
/** A memory result may sit at most 0.1 % below the exact target (999/1000 of it). */
const TOLERANCE_NUM = 999n;
const TOLERANCE_DEN = 1000n;

/** A ratio as an exact fraction: 1.6 -> 16/10 (via its shortest decimal text). */
function ratioFraction(ratio: number): { num: bigint; den: bigint } {
  const q = parseQuantity(String(ratio));
  return { num: q.num, den: q.den };
}

/**
 * CPU request `text` divided by `ratio` (>= 1), rounded down to whole millicores, raised to
 * `minMilli`, and never above the original. Undefined when the result would not be lower
 * than the original (nothing to change). Throws QuantityError on a bad quantity.
 */
export function scaleCpuRequest(text: string, ratio: number, minMilli: bigint): ScaledRequest | undefined {
  const q = parseQuantity(text);
  const r = ratioFraction(ratio);
  // target milli = (num / den) * 1000 / (r.num / r.den)
  const target = floorDiv(q.num * 1000n * r.den, q.den * r.num);
  const milli = target < minMilli ? minMilli : target;
  if (milli * q.den >= q.num * 1000n) return undefined; // not lower than the original
  const originalMilli = ceilPositive(q.num * 1000n, q.den);
  return { text: formatCpuMilli(Number(milli)), removed: originalMilli - milli };
}

/**
 * Memory request `text` divided by `ratio` (>= 1): whole bytes, a multiple of the largest
 * binary (`Ki`..`Ei`) or decimal (`k`..`E`) unit of the original's family that lands within
 * 0.1 % below the exact target; raised to `minBytes`; never above the original. Undefined
 * when the result would not be lower than the original.
 */
export function scaleMemoryRequest(text: string, ratio: number, minBytes: bigint): ScaledRequest | undefined {
  const q = parseQuantity(text);
  const r = ratioFraction(ratio);
  // exact target bytes = N / D
  const n = q.num * r.den;
  const d = q.den * r.num;
  let bytes = floorDiv(n, d);
  for (const unit of q.format === "binary" ? BINARY_UNITS : DECIMAL_UNITS) {
    const k = floorDiv(n, d * unit);
    if (k >= 1n && k * unit * d * TOLERANCE_DEN >= n * TOLERANCE_NUM) {
      bytes = k * unit;
      break;
    }
  }
  if (bytes < minBytes) bytes = minBytes;
  if (bytes * q.den >= q.num) return undefined;
  return { text: formatMemoryBytes(bytes, q.format), removed: ceilPositive(q.num, q.den) - bytes };
}

function ceilPositive(n: bigint, d: bigint): bigint {
  return n % d === 0n ? n / d : floorDiv(n, d) + 1n;
}
