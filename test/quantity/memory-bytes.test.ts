import { expect } from "chai";
import { memoryBytes } from "../../src/quantity/memory-bytes.js";
import { QuantityError } from "../../src/quantity/quantity-error.js";

describe("memoryBytes", () => {
  const cases: Array<{ text: string; want: number }> = [
    { text: "1Gi", want: 2 ** 30 },
    { text: "1G", want: 1e9 },
    { text: "1.5Gi", want: 1.5 * 2 ** 30 },
    { text: "129e6", want: 129_000_000 },
    { text: "128974848", want: 128_974_848 },
    { text: "0.5", want: 1 }, // rounds up like Value()
    { text: "1500m", want: 2 },
    { text: "8.1k", want: 8100 },
    { text: "16Mi", want: 16 * 2 ** 20 },
  ];
  for (const c of cases) it(`given ${c.text}, returns ${c.want}`, () => expect(memoryBytes(c.text)).to.equal(c.want));
  it("given 1Ei (beyond 2^53), throws QuantityError rather than losing precision", () =>
    expect(() => memoryBytes("8Ei")).to.throw(QuantityError));
  it("given 1mi, throws QuantityError", () => expect(() => memoryBytes("1mi")).to.throw(QuantityError));
});
