import { expect } from "chai";
import { RateLimited } from "../../src/observability/rate-limited.js";

describe("RateLimited", () => {
  it("lets the first event of a key through, holds the others back for the interval, then reports how many it held", () => {
    const now = { ms: 0 };
    const limiter = new RateLimited(1000, () => now.ms);
    expect(limiter.allow("a")).to.equal(0);
    expect(limiter.allow("a")).to.equal(undefined);
    expect(limiter.allow("b"), "keys are independent").to.equal(0);
    now.ms = 999;
    expect(limiter.allow("a")).to.equal(undefined);
    now.ms = 1000;
    expect(limiter.allow("a"), "two held back since the last one let through").to.equal(2);
  });

  it("given more keys than it remembers, forgets the oldest first", () => {
    const limiter = new RateLimited(1000, () => 0, 2);
    limiter.allow("a");
    limiter.allow("b");
    limiter.allow("c");
    expect(limiter.allow("a"), "a was forgotten: let through again").to.equal(0);
    expect(limiter.allow("c"), "c is still remembered").to.equal(undefined);
  });
});
