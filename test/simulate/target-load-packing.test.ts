import { expect } from "chai";
import { predictUtilisationMilli, targetLoadPackingScore } from "../../src/simulate/target-load-packing.js";

describe("targetLoadPackingScore (Trimaran, target 40 %)", () => {
  const cases: Array<{ name: string; util: number | undefined; cap: number; pod: number; missing: number; want: number }> = [
    // predicted = 100 x (0 + 1000) / 4000 = 25 <= 40: round(60 x 25 / 40 + 40) = round(77.5) = 78
    { name: "idle node, 1 core pod on 4 cores -> 78", util: 0, cap: 4000, pod: 1000, missing: 0, want: 78 },
    // predicted = 100 x (0.3 x 4000 + 400) / 4000 = 40: round(60 x 40 / 40 + 40) = 100
    { name: "landing exactly on the target -> 100", util: 30, cap: 4000, pod: 400, missing: 0, want: 100 },
    // predicted = 100 x (0.5 x 4000 + 1000) / 4000 = 75 > 40: round(40 x 25 / 60) = round(16.67) = 17
    { name: "above target is penalised -> 17", util: 50, cap: 4000, pod: 1000, missing: 0, want: 17 },
    // predicted = 100 x (0.9 x 4000 + 1000) / 4000 = 115 > 100 -> 0
    { name: "over 100 % -> MinNodeScore", util: 90, cap: 4000, pod: 1000, missing: 0, want: 0 },
    // predicted = 100 x (0 + 1000 + 1000) / 4000 = 50: round(40 x 50 / 60) = round(33.3) = 33
    { name: "recently bound pods count as missing utilisation", util: 0, cap: 4000, pod: 1000, missing: 1000, want: 33 },
    { name: "no metrics -> MinNodeScore", util: undefined, cap: 4000, pod: 1000, missing: 0, want: 0 },
  ];
  for (const c of cases) it(c.name, () => expect(targetLoadPackingScore(c.util, c.cap, c.pod, c.missing)).to.equal(c.want));
});

describe("predictUtilisationMilli", () => {
  it("uses the limit when set", () => expect(predictUtilisationMilli(2000, 500)).to.equal(2000));
  it("else request x 1.5", () => expect(predictUtilisationMilli(0, 500)).to.equal(750));
  it("else 1000m", () => expect(predictUtilisationMilli(0, 0)).to.equal(1000));
});
