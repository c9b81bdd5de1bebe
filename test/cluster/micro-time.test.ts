import { expect } from "chai";
import { fromKubeTime, toMicroTime } from "../../src/cluster/micro-time.js";

describe("toMicroTime", () => {
  it("given epoch ms, returns six fractional digits in UTC", () => {
    expect(toMicroTime(Date.parse("2026-11-29T10:00:00.123Z"))).to.equal("2026-11-29T10:00:00.123000Z");
    expect(toMicroTime(Date.parse("2026-11-29T10:00:00Z"))).to.equal("2026-11-29T10:00:00.000000Z");
  });

  it("given MicroTime text or a Date, reads it back", () => {
    expect(fromKubeTime("2026-11-29T10:00:00.123456Z")).to.equal(Date.parse("2026-11-29T10:00:00.123Z"));
    expect(fromKubeTime(new Date(5))).to.equal(5);
    expect(fromKubeTime("garbage")).to.equal(undefined);
    expect(fromKubeTime(undefined)).to.equal(undefined);
  });
});
