import { expect } from "chai";
import { ShadowRing } from "../../src/observability/shadow-ring.js";

describe("ShadowRing", () => {
  it("keeps the last `capacity` entries, newest first", () => {
    const ring = new ShadowRing(2);
    for (const pod of ["ns/a", "ns/b", "ns/c"])
      ring.push({ at: "2026-11-29T10:00:00.000Z", verb: "filter", pod, verdict: "reject", reasons: [] });
    expect(ring.recent().map((e) => e.pod)).to.deep.equal(["ns/c", "ns/b"]);
  });
});
