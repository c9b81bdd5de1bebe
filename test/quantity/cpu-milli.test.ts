import { expect } from "chai";
import { cpuMilli, formatCpuMilli } from "../../src/quantity/cpu-milli.js";
import { QuantityError } from "../../src/quantity/quantity-error.js";

describe("cpuMilli", () => {
  const cases: Array<{ text: string; want: number }> = [
    { text: "500m", want: 500 },
    { text: "0.5", want: 500 },
    { text: ".5", want: 500 },
    { text: "2", want: 2000 },
    { text: "1500m", want: 1500 },
    { text: "0.0001", want: 1 }, // 0.1m rounds up like MilliValue()
    { text: "1000u", want: 1 },
    { text: "1001u", want: 2 }, // 1.001m -> 2m
    { text: "1e3", want: 1_000_000 },
    { text: "0.1", want: 100 }, // no float drift
  ];
  for (const c of cases) it(`given ${c.text}, returns ${c.want}`, () => expect(cpuMilli(c.text)).to.equal(c.want));
  it("given an out-of-range value, throws QuantityError", () => expect(() => cpuMilli("1e30")).to.throw(QuantityError));
  it("given garbage, throws QuantityError", () => expect(() => cpuMilli("two")).to.throw(QuantityError));
});

describe("formatCpuMilli", () => {
  const cases: Array<{ milli: number; want: string }> = [
    { milli: 250, want: "250m" },
    { milli: 1000, want: "1" },
    { milli: 1500, want: "1500m" },
    { milli: 0, want: "0" },
    { milli: 10, want: "10m" },
  ];
  for (const c of cases) it(`given ${c.milli}, returns ${c.want}`, () => expect(formatCpuMilli(c.milli)).to.equal(c.want));
  it("given a fraction of a millicore, throws QuantityError", () => expect(() => formatCpuMilli(0.5)).to.throw(QuantityError));
});
