import { ceilDiv, floorDiv, type Quantity, type QuantityFormat } from "./quantity.js";
import { parseQuantity } from "./parse-quantity.js";

const BINARY_SUFFIXES = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"] as const;
const DECIMAL_SUFFIXES: Readonly<Record<number, string>> = {
  [-9]: "n",
  [-6]: "u",
  [-3]: "m",
  0: "",
  3: "k",
  6: "M",
  9: "G",
  12: "T",
  15: "P",
  18: "E",
};
const NANO = 10n ** 9n;

/**
 * Canonical text of a quantity, as the API server writes it back (Go `Quantity.String()`):
 * `0.5`->`500m`, `1000m`->`1`, `1024Mi`->`1Gi`, `1.5Gi`->`1536Mi`, `8.1k`->`8100`,
 * `10e2`->`1e3`, `1000u`->`1m`. Values finer than 1n round up (away from zero) to 1n.
 * A binary value below 1024 or with a fraction is written in decimal (like Go).
 */
export function formatQuantity(q: Quantity): string {
  // Exact value in nano units, rounded away from zero like inf.RoundUp.
  const scaled = q.num * NANO;
  const nanos = q.num >= 0n ? ceilDiv(scaled, q.den) : floorDiv(scaled, q.den);
  if (nanos === 0n) return "0";
  if (q.format === "binary" && nanos % NANO === 0n) {
    const whole = nanos / NANO;
    if (whole >= 1024n || whole <= -1024n) return formatBinary(whole);
  }
  return formatDecimal(nanos, q.format === "exponent" ? "exponent" : "decimal");
}

/** Integer bytes in binary family: the largest power of 1024 that divides exactly. */
function formatBinary(whole: bigint): string {
  let mantissa = whole;
  let power = 0;
  while (power < BINARY_SUFFIXES.length - 1 && mantissa % 1024n === 0n) {
    mantissa /= 1024n;
    power += 1;
  }
  return `${mantissa}${BINARY_SUFFIXES[power]}`;
}

/** Value = nanos * 10^-9, written as mantissa * 10^(3k) with the largest such k. */
function formatDecimal(nanos: bigint, format: Exclude<QuantityFormat, "binary">): string {
  let mantissa = nanos;
  let exponent = -9;
  const maxExponent = format === "decimal" ? 18 : Number.MAX_SAFE_INTEGER;
  while (exponent < maxExponent && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  if (format === "exponent") return exponent === 0 ? `${mantissa}` : exponentSuffix(mantissa, exponent);
  return `${mantissa}${DECIMAL_SUFFIXES[exponent] ?? ""}`;
}

function exponentSuffix(mantissa: bigint, exponent: number): string {
  return `${mantissa}e${exponent}`;
}

/** A quantity of `bytes` whole bytes in the given family (canonical text via formatQuantity). */
export function bytesQuantity(bytes: bigint | number, format: QuantityFormat): Quantity {
  return { num: BigInt(bytes), den: 1n, format };
}

/** Canonical text for whole bytes in a family: `formatMemoryBytes(1610612736, "binary")` -> `1536Mi`. */
export function formatMemoryBytes(bytes: bigint | number, format: QuantityFormat): string {
  return formatQuantity(bytesQuantity(bytes, format));
}

/** Canonical form of a quantity text (`1024Mi` -> `1Gi`); throws `QuantityError` on bad text. */
export function canonicalQuantity(text: string): string {
  return formatQuantity(parseQuantity(text));
}
