import { expect } from "chai";
import { MAX_KEY_CHARS, SharedValues } from "../../src/cluster/shared-values.js";

describe("SharedValues", () => {
  it("given a key seen before, returns the value kept for it, frozen, not the new one", () => {
    const values = new SharedValues<{ n: number }>(8);
    const first = values.shared("a", { n: 1 });
    const again = values.shared("a", { n: 1 });
    expect(again).to.equal(first);
    expect(Object.isFrozen(first)).to.equal(true);
    expect(values.shared("b", { n: 2 })).to.not.equal(first);
  });

  it("given more distinct keys than its bound, starts afresh and never holds more than the bound", () => {
    const values = new SharedValues<string>(3);
    for (const key of ["a", "b", "c", "d"]) values.shared(key, key);
    expect(values.size).to.equal(1);
    const fresh = "a".repeat(1);
    expect(values.shared("a", fresh)).to.equal(fresh);
    expect(values.size).to.equal(2);
  });

  it("given a key longer than MAX_KEY_CHARS, returns the value without keeping it", () => {
    const values = new SharedValues<{ n: number }>(8);
    const long = "x".repeat(MAX_KEY_CHARS + 1);
    const value = { n: 1 };
    expect(values.shared(long, value)).to.equal(value);
    expect(values.shared(long, { n: 1 })).to.not.equal(value);
    expect(values.size).to.equal(0);
  });
});
