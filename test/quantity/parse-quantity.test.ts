import { expect } from "chai";
import { parseQuantity } from "../../src/quantity/parse-quantity.js";
import { QuantityError } from "../../src/quantity/quantity-error.js";

const accepted: Array<{ text: string; num: bigint; den: bigint; format: string }> = [
  { text: "500m", num: 500n, den: 1000n, format: "decimal" }, // 500 * 10^-3
  { text: "0.5", num: 5n, den: 10n, format: "decimal" },
  { text: ".5", num: 5n, den: 10n, format: "decimal" },
  { text: "5.", num: 5n, den: 1n, format: "decimal" },
  { text: "2", num: 2n, den: 1n, format: "decimal" },
  { text: "+1", num: 1n, den: 1n, format: "decimal" },
  { text: "-1", num: -1n, den: 1n, format: "decimal" },
  { text: "1.5Gi", num: 15n * 2n ** 30n, den: 10n, format: "binary" }, // 1.5 * 2^30
  { text: "4Gi", num: 4n * 2n ** 30n, den: 1n, format: "binary" },
  { text: "4G", num: 4_000_000_000n, den: 1n, format: "decimal" },
  { text: "129e6", num: 129_000_000n, den: 1n, format: "exponent" },
  { text: "1e3", num: 1000n, den: 1n, format: "exponent" },
  { text: "1E3", num: 1000n, den: 1n, format: "exponent" },
  { text: "1e-3", num: 1n, den: 1000n, format: "exponent" },
  { text: "1e+3", num: 1000n, den: 1n, format: "exponent" },
  { text: "8.1k", num: 81_000n, den: 10n, format: "decimal" }, // 8.1 * 10^3
  { text: "1000u", num: 1000n, den: 1_000_000n, format: "decimal" },
  { text: "3n", num: 3n, den: 1_000_000_000n, format: "decimal" },
  { text: "1E", num: 10n ** 18n, den: 1n, format: "decimal" }, // exa, not an exponent
  { text: "1Ei", num: 2n ** 60n, den: 1n, format: "binary" },
  { text: "0", num: 0n, den: 1n, format: "decimal" },
  { text: "007", num: 7n, den: 1n, format: "decimal" },
];

const rejected = [
  "",
  "K",
  "1K",
  "1mi",
  "1 Gi",
  " 1",
  "1 ",
  "Gi",
  ".",
  "+",
  "-.",
  "1..5",
  "abc",
  "1e",
  "1e1.5",
  "1ee3",
  "1Gib",
  "0x10",
  "1,5",
  "1e999",
  "1m\n",
];

describe("parseQuantity", () => {
  for (const c of accepted) {
    it(`given ${JSON.stringify(c.text)}, returns ${c.num}/${c.den} (${c.format})`, () => {
      const q = parseQuantity(c.text);
      expect(q.num * c.den).to.equal(c.num * q.den);
      expect(q.format).to.equal(c.format);
    });
  }
  for (const text of rejected) {
    it(`given ${JSON.stringify(text)}, throws QuantityError`, () => {
      expect(() => parseQuantity(text)).to.throw(QuantityError);
    });
  }
  it("given a very long text, throws QuantityError instead of working on it", () => {
    expect(() => parseQuantity("1".repeat(10_000))).to.throw(QuantityError, /longer/);
  });
  it("given a non-string, throws QuantityError", () => {
    expect(() => parseQuantity(42 as unknown as string)).to.throw(QuantityError);
  });
});
