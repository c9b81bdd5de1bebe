import { expect } from "chai";
import { KeptNode, UNSCORED } from "../../src/placement/kept-node.js";

describe("KeptNode", () => {
  const counting = () => {
    const rescored: string[] = [];
    const node = new KeptNode<string, string>("judgement", "a", "decision a");
    const ask = (relative: string) => node.decisionFor(relative, (j) => (rescored.push(relative), `${j} for ${relative}`));
    return { ask, rescored };
  };

  it("given two keys asked in turn (a pod's filter and prioritize), re-scores the second once and answers both after", () => {
    const { ask, rescored } = counting();
    expect(["a", "b", "a", "b", "a"].map(ask)).to.deep.equal([
      "decision a",
      "judgement for b",
      "decision a",
      "judgement for b",
      "decision a",
    ]);
    expect(rescored).to.deep.equal(["b"]);
  });

  it("given a third key, replaces the key not used last", () => {
    const { ask, rescored } = counting();
    ["b", "a", "c", "a", "b"].forEach(ask);
    // c replaced b (a was used last); b then replaced c (a was used last again).
    expect(rescored).to.deep.equal(["b", "c", "b"]);
  });

  it("given a verdicts-only request (UNSCORED), answers the decision used last and re-scores nothing", () => {
    const { ask, rescored } = counting();
    expect(["b", UNSCORED, "a", UNSCORED].map(ask)).to.deep.equal(["judgement for b", "judgement for b", "decision a", "decision a"]);
    expect(rescored).to.deep.equal(["b"]);
  });

  it("given no judgement (a decision that read no adjustment), answers every key with its one decision", () => {
    const node = new KeptNode<string, string>(undefined, "a", "decision");
    expect(node.decisionFor("b", () => "rescored")).to.equal("decision");
  });
});
