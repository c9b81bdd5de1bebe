import { expect } from "chai";
import { memStateValue, seriesValue } from "../../../mocks/vcenter/series-value.js";
import type { MemStateSeries, NumberSeries } from "../../../mocks/vcenter/index.js";

const steps: NumberSeries = [
  { atSeconds: 0, value: 3 },
  { atSeconds: 60, value: 14 },
];
const ramp: NumberSeries = {
  ramp: [
    { atSeconds: 10, value: 0 },
    { atSeconds: 110, value: 100 },
  ],
};

describe("seriesValue", () => {
  const cases: Array<{ name: string; series: NumberSeries; at: number; want: number }> = [
    { name: "a constant", series: 7, at: 1234, want: 7 },
    { name: "steps before the second step", series: steps, at: 59.9, want: 3 },
    { name: "steps at the second step", series: steps, at: 60, want: 14 },
    { name: "steps before the first step (past samples)", series: steps, at: -100, want: 3 },
    { name: "a ramp before its start", series: ramp, at: 0, want: 0 },
    // 0 + (100 - 0) x (35 - 10) / (110 - 10) = 25
    { name: "a ramp a quarter in", series: ramp, at: 35, want: 25 },
    { name: "a ramp past its end", series: ramp, at: 500, want: 100 },
  ];
  for (const c of cases) it(`given ${c.name}, returns ${c.want}`, () => expect(seriesValue(c.series, c.at)).to.equal(c.want));
});

describe("memStateValue", () => {
  const states: MemStateSeries = [
    { atSeconds: 0, value: "high" },
    { atSeconds: 30, value: "hard" },
  ];
  const cases: Array<{ at: number; want: string }> = [
    { at: 0, want: "high" },
    { at: 29, want: "high" },
    { at: 30, want: "hard" },
  ];
  for (const c of cases) it(`given t=${c.at}, returns ${c.want}`, () => expect(memStateValue(states, c.at)).to.equal(c.want));
  it("given a constant, returns it", () => expect(memStateValue("soft", 99)).to.equal("soft"));
});
