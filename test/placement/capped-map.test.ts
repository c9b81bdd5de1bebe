import { expect } from "chai";
import { CappedMap } from "../../src/placement/capped-map.js";

describe("CappedMap", () => {
  it("given fewer keys than the cap, holds every one", () => {
    const m = new CappedMap<string, number>(3);
    m.set("a", 1).set("b", 2).set("c", 3);
    expect([...m.entries()]).to.deep.equal([
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ]);
  });

  it("given a new key when full, empties itself first and holds only the new key", () => {
    const m = new CappedMap<string, number>(2);
    m.set("a", 1).set("b", 2).set("c", 3);
    expect([...m.entries()]).to.deep.equal([["c", 3]]);
  });

  it("given a known key when full, replaces its value and keeps the others", () => {
    const m = new CappedMap<string, number>(2);
    m.set("a", 1).set("b", 2).set("a", 9);
    expect([...m.entries()]).to.deep.equal([
      ["a", 9],
      ["b", 2],
    ]);
  });

  it("given 100 000 distinct keys, never holds more than the cap", () => {
    const m = new CappedMap<number, number>(1000);
    let most = 0;
    for (let i = 0; i < 100_000; i++) most = Math.max(most, m.set(i, i).size);
    expect(most).to.equal(1000);
  });

  for (const bad of [0, -1, Number.NaN])
    it(`given maxEntries ${bad}, throws a RangeError`, () => expect(() => new CappedMap(bad)).to.throw(RangeError, /maxEntries >= 1/));
});
