import { expect } from "chai";
import { CandidateNames } from "../../src/protocol/candidate-names.js";

describe("CandidateNames", () => {
  it("given the same names again, hands back the same identities; other names get their own", () => {
    const names = new CandidateNames();
    const first = names.identities(["a", "b"]);
    expect(first).to.deep.equal([{ name: "a" }, { name: "b" }]);
    expect(names.identities(["a", "b"].map((n) => `${n}`))).to.equal(first);
    const other = names.identities(["b", "a"]);
    expect(other).to.not.equal(first);
    expect(other).to.deep.equal([{ name: "b" }, { name: "a" }]);
    // The last two lists are remembered: the first is still known, a third pushes it out.
    expect(names.identities(["a", "b"])).to.equal(first);
    names.identities(["c"]);
    names.identities(["d"]);
    expect(names.identities(["a", "b"])).to.not.equal(first);
  });

  it("judges whether a list's names are free of characters JSON escapes", () => {
    const names = new CandidateNames();
    expect(names.factsOf(names.identities(["node-1", "node-2"]))).to.deep.equal({ plainText: true });
    expect(names.factsOf(names.identities(['q"uote']))).to.include({ plainText: false });
    expect(names.factsOf(names.identities(["ü"]))).to.include({ plainText: false });
    expect(names.factsOf(names.identities(["back\\slash"]))).to.include({ plainText: false });
    expect(names.factsOf(names.identities(["tab\there"]))).to.include({ plainText: false });
    expect(names.factsOf([{ name: "x" }, { name: "y" }])).to.deep.equal({ plainText: true });
  });
});
