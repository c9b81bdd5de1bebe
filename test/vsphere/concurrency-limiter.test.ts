import { expect } from "chai";
import { createLimiter } from "../../src/vsphere/concurrency-limiter.js";

describe("createLimiter", () => {
  it("given 20 tasks and a limit of 3, never runs more than 3 at once and runs them all", async () => {
    const limit = createLimiter(3);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        limit(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((r) => setImmediate(r));
          running -= 1;
          return i;
        }),
      ),
    );
    expect(peak).to.equal(3);
    expect(results).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
  });

  it("given a failing task, releases its slot and rejects only that call", async () => {
    const limit = createLimiter(1);
    const failed = limit(() => Promise.reject(new Error("boom")));
    const thrown = limit(() => {
      throw new Error("sync boom");
    });
    const ok = limit(() => Promise.resolve("ok"));
    expect(await failed.catch((e: Error) => e.message)).to.equal("boom");
    expect(await thrown.catch((e: Error) => e.message)).to.equal("sync boom");
    expect(await ok).to.equal("ok");
  });

  it("given a limit below 1, throws", () => {
    expect(() => createLimiter(0)).to.throw(RangeError);
  });
});
