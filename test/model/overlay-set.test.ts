import { expect } from "chai";
import { OverlaySet } from "../../src/model/overlay-set.js";

describe("OverlaySet.patched", () => {
  it("given removals and additions, has, counts and lists what a copied Set with deletes and adds would", () => {
    const patched = OverlaySet.patched(new Set(["a", "b", "c"]), ["b", "x"], ["d", "a"], 8);
    expect([patched.has("a"), patched.has("b"), patched.has("d"), patched.has("x")]).to.deep.equal([true, false, true, false]);
    expect(patched.size).to.equal(3);
    expect([...patched].sort()).to.deep.equal(["a", "c", "d"]);
  });

  it("given a chain of patches past maxChanges, stays equal to the Set it stands for", () => {
    let set: ReadonlySet<string> = new Set(["u-0"]);
    const expected = new Set(["u-0"]);
    for (let i = 1; i <= 40; i++) {
      const gone = i % 3 === 0 ? [`u-${i - 2}`] : [];
      set = OverlaySet.patched(set, gone, [`u-${i}`], 4);
      for (const g of gone) expected.delete(g);
      expected.add(`u-${i}`);
      expect([...set].sort(), `after ${i}`).to.deep.equal([...expected].sort());
      expect(set.size).to.equal(expected.size);
    }
  });
});
