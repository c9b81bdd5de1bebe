import { expect } from "chai";
import { cpuMilli, formatCpuMilli } from "../../src/quantity/cpu-milli.js";
import { bytesQuantity, canonicalQuantity, formatQuantity } from "../../src/quantity/format-quantity.js";
import { memoryBytes } from "../../src/quantity/memory-bytes.js";
import { parseQuantity } from "../../src/quantity/parse-quantity.js";
import { QuantityError } from "../../src/quantity/quantity-error.js";
import { ceilDiv, compareQuantity, floorDiv } from "../../src/quantity/quantity.js";

// Edges and messages found by mutation testing (docs/testing.md): each case fails on a
// change to src/quantity that the other tests let through.

const MAX = Number.MAX_SAFE_INTEGER;

function thrown(f: () => unknown): QuantityError {
  try {
    f();
  } catch (err) {
    expect(err).to.be.instanceOf(QuantityError);
    return err as QuantityError;
  }
  throw new Error("expected a QuantityError");
}

describe("quantity edges", () => {
  describe("compareQuantity", () => {
    const q = parseQuantity;
    const cases: Array<[string, string, -1 | 0 | 1]> = [
      ["1.5", "2", -1],
      ["2", "1.5", 1],
      ["1500m", "1.5", 0],
      ["0.25", "250m", 0],
      ["3", "2.5", 1],
      ["-1", "-0.5", -1],
      ["1Ki", "1024", 0],
    ];
    for (const [a, b, want] of cases) {
      it(`compares ${a} with ${b} as ${want} (different denominators)`, () => {
        expect(compareQuantity(q(a), q(b))).to.equal(want);
      });
    }
  });

  describe("ceilDiv / floorDiv", () => {
    it("divide exactly without rounding", () => {
      expect(ceilDiv(4n, 2n)).to.equal(2n);
      expect(floorDiv(4n, 2n)).to.equal(2n);
      expect(ceilDiv(-4n, 2n)).to.equal(-2n);
      expect(floorDiv(-4n, 2n)).to.equal(-2n);
      expect(ceilDiv(0n, 3n)).to.equal(0n);
      expect(floorDiv(0n, 3n)).to.equal(0n);
    });
    it("round up and down on both sides of zero", () => {
      expect(ceilDiv(3n, 2n)).to.equal(2n);
      expect(ceilDiv(-3n, 2n)).to.equal(-1n);
      expect(floorDiv(3n, 2n)).to.equal(1n);
      expect(floorDiv(-3n, 2n)).to.equal(-2n);
    });
  });

  describe("cpuMilli / memoryBytes range", () => {
    it("accepts exactly the safe-integer range of millicores, and refuses one past it on each side", () => {
      expect(cpuMilli(`${MAX}m`)).to.equal(MAX);
      expect(cpuMilli(`-${MAX}m`)).to.equal(-MAX);
      expect(thrown(() => cpuMilli(`${MAX + 1}m`)).message).to.equal(`cpu quantity "${MAX + 1}m" is out of range`);
      expect(thrown(() => cpuMilli(`-${MAX + 1}m`)).message).to.equal(`cpu quantity "-${MAX + 1}m" is out of range`);
    });
    it("accepts exactly the safe-integer range of bytes, and refuses one past it on each side", () => {
      expect(memoryBytes(`${MAX}`)).to.equal(MAX);
      expect(memoryBytes(`-${MAX}`)).to.equal(-MAX);
      expect(thrown(() => memoryBytes(`${MAX + 1}`)).message).to.equal(`memory quantity "${MAX + 1}" is out of range`);
      expect(thrown(() => memoryBytes(`-${MAX + 1}`)).message).to.equal(`memory quantity "-${MAX + 1}" is out of range`);
    });
    it("formatCpuMilli names the bad value", () => {
      const err = thrown(() => formatCpuMilli(1.5));
      expect(err.message).to.equal("millicores must be a safe integer, got 1.5");
      expect(err.text).to.equal("1.5");
    });
  });

  describe("formatQuantity", () => {
    const cases: Array<[string, string]> = [
      ["1T", "1T"],
      ["1P", "1P"],
      ["1E", "1E"],
      // decimal suffixes stop at E; the exponent family does not
      ["1000E", "1000E"],
      ["1e21", "1e21"],
      // binary suffixes stop at Ei
      ["1024Ei", "1024Ei"],
      // finer than 1n rounds away from zero, on both sides
      ["1e-10", "1e-9"],
      ["-1e-10", "-1e-9"],
      ["-0.0000000001", "-1n"],
      // a binary value with a fraction of a byte is written in decimal
      ["1.0001Ki", "1024102400u"],
    ];
    for (const [text, want] of cases) {
      it(`writes ${text} as ${want}`, () => {
        expect(canonicalQuantity(text)).to.equal(want);
      });
    }
    it("writes whole binary values below 1024 in decimal, and from 1024 in binary, on both sides of zero", () => {
      const binary = (n: number) => formatQuantity(bytesQuantity(n, "binary"));
      expect(binary(1000)).to.equal("1k");
      expect(binary(1023)).to.equal("1023");
      expect(binary(1024)).to.equal("1Ki");
      expect(binary(-1000)).to.equal("-1k");
      expect(binary(-1023)).to.equal("-1023");
      expect(binary(-1024)).to.equal("-1Ki");
    });
  });

  describe("parseQuantity limits and messages", () => {
    it("accepts 64 characters and refuses 65", () => {
      const sixtyFour = `1${"0".repeat(63)}`;
      expect(parseQuantity(sixtyFour).num).to.equal(10n ** 63n);
      expect(thrown(() => parseQuantity(`${sixtyFour}0`)).message).to.equal("quantity longer than 64 characters");
    });
    it("accepts an exponent of 100 and refuses 101", () => {
      expect(parseQuantity("1e100").num).to.equal(10n ** 100n);
      expect(parseQuantity("1e-100").den).to.equal(10n ** 100n);
      expect(thrown(() => parseQuantity("1e101")).message).to.equal('quantity "1e101": exponent out of range');
      expect(thrown(() => parseQuantity("1e-101")).message).to.equal('quantity "1e-101": exponent out of range');
    });
    it("says what is wrong", () => {
      expect(thrown(() => parseQuantity("")).message).to.equal("quantity is empty");
      expect(thrown(() => parseQuantity(5 as unknown as string)).message).to.equal("quantity must be a string, got number");
      expect(thrown(() => parseQuantity("Mi")).message).to.equal('quantity "Mi" does not start with a number');
      expect(thrown(() => parseQuantity("1K")).message).to.equal('quantity "1K" has an unknown suffix "K"');
    });
    it("errors are named QuantityError and carry the text", () => {
      const err = thrown(() => parseQuantity("1K"));
      expect(err.name).to.equal("QuantityError");
      expect(err.text).to.equal("1K");
    });
  });
});
