import { expect } from "chai";
import { normalizeSpreadScores, spreadRawScore } from "../../src/simulate/pod-topology-spread.js";

describe("PodTopologySpread scoring (system default hostname constraint, maxSkew 3)", () => {
  it("raw score: matching pods x ln(scored nodes + 2) + (maxSkew - 1), rounded", () => {
    // 24 nodes: ln(26) = 3.258; 0 pods -> 2; 1 pod -> round(5.258) = 5; 6 pods -> round(21.55) = 22
    expect(spreadRawScore(0, 24)).to.equal(2);
    expect(spreadRawScore(1, 24)).to.equal(5);
    expect(spreadRawScore(6, 24)).to.equal(22);
  });
  it("normalises to 100 x (max + min - raw) / max with integer division: fewer matching pods score higher", () => {
    // raw [5, 2, 2]: max 5, min 2 -> 100 x 2 / 5 = 40, 100 x 5 / 5 = 100
    const s = [5, 2, 2];
    normalizeSpreadScores(s, 3);
    expect(s).to.deep.equal([40, 100, 100]);
  });
  it("truncates like int64 division", () => {
    // raw [25, 22]: 100 x 22 / 25 = 88, 100 x 25 / 25 = 100
    const s = [25, 22];
    normalizeSpreadScores(s, 2);
    expect(s).to.deep.equal([88, 100]);
    // raw [7, 3, 4]: 100 x 3 / 7 = 42.86 -> 42; 100 x 7 / 7 = 100; 100 x 6 / 7 = 85.7 -> 85
    const t = [7, 3, 4];
    normalizeSpreadScores(t, 3);
    expect(t).to.deep.equal([42, 100, 85]);
  });
  it("equal counts everywhere score 100 on every node", () => {
    const s = [2, 2, 2, 2];
    normalizeSpreadScores(s, 4);
    expect(s).to.deep.equal([100, 100, 100, 100]);
  });
});
