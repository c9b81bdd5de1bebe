import { expect } from "chai";
import { hash01, hashNormal, mulberry32 } from "../../src/random/prng.js";

describe("mulberry32", () => {
  it("given the same seed, returns the same sequence", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    for (let i = 0; i < 100; i++) expect(a()).to.equal(b());
  });
  it("given different seeds, returns different sequences", () => {
    expect(mulberry32(1)()).to.not.equal(mulberry32(2)());
  });
  it("returns uniforms in [0, 1) with a mean near 1/2", () => {
    const r = mulberry32(7);
    let sum = 0;
    for (let i = 0; i < 10_000; i++) {
      const x = r();
      expect(x).to.be.at.least(0).and.below(1);
      sum += x;
    }
    expect(sum / 10_000).to.be.closeTo(0.5, 0.02);
  });
});

describe("hash01 / hashNormal", () => {
  it("given the same keys, returns the same value whatever was asked before", () => {
    const first = hash01(1, 2, 3);
    hash01(9, 9, 9);
    expect(hash01(1, 2, 3)).to.equal(first);
  });
  it("hashNormal has mean ~0 and variance ~1 and stays within [-3, 3]", () => {
    let sum = 0;
    let sq = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const x = hashNormal(5, i, 11);
      expect(Math.abs(x)).to.be.at.most(3);
      sum += x;
      sq += x * x;
    }
    expect(sum / n).to.be.closeTo(0, 0.05);
    expect(sq / n).to.be.closeTo(1, 0.08);
  });
});
