import { expect } from "chai";
import { HostLoadProfiles } from "../../src/placement/host-load-profiles.js";
import { PROFILE_METRICS } from "../../src/model/host-forecast.js";
import { hostView, inventoryOf, NOW_MS } from "../fixtures/inventory.js";

const READY = PROFILE_METRICS.indexOf("cpuReadyPercent");
const DAY_MS = 86_400_000;

/** Records each host's sample (hosts `null`: none) as polled at this time of day on three days running: a trusted profile. */
function recordThreeDays(profiles: HostLoadProfiles, hosts: Array<{ id: string; metrics?: null }>): void {
  for (const d of [2, 1, 0]) {
    const views = hosts.map((h) => hostView({ id: h.id, metrics: h.metrics === null ? null : { sampledAtMs: NOW_MS - d * DAY_MS } }));
    profiles.recordInventory(inventoryOf(views, []), 20);
  }
}

describe("HostLoadProfiles", () => {
  it("given the same sample polled twice, records it once", () => {
    const profiles = new HostLoadProfiles();
    const inv = inventoryOf([hostView({ id: "host-1", metrics: { cpuReadyPercent: 4, sampledAtMs: NOW_MS - 20_000 } })], []);
    profiles.recordInventory(inv, 20);
    profiles.recordInventory(inv, 20);
    profiles.recordInventory(inventoryOf([hostView({ id: "host-1", metrics: { cpuReadyPercent: 8, sampledAtMs: NOW_MS } })], []), 20);
    // both 20 s samples end by 10:00, so they fall in bucket 19 (09:30); (4 x 20 + 8 x 20) / 40 = 6: the repeated one counted once
    expect(profiles.profileOf("host-1").bucketMeans(READY, 19, NOW_MS, [])).to.deep.equal([6]);
  });

  it("given hosts with and without samples, forecasts only those with history and counts them", () => {
    const profiles = new HostLoadProfiles();
    profiles.profileOf("host-empty");
    recordThreeDays(profiles, [{ id: "host-1" }, { id: "host-2", metrics: null }]);
    expect([...profiles.forecasts(NOW_MS).keys()]).to.deep.equal(["host-1"]);
    expect(profiles.learntHosts).to.equal(1);
    expect(profiles.has("host-empty")).to.equal(true);
    expect(profiles.has("host-2")).to.equal(false);
  });

  it("given a host gone from vCenter, forgets it", () => {
    const profiles = new HostLoadProfiles();
    recordThreeDays(profiles, [{ id: "host-1" }, { id: "host-2" }]);
    profiles.retain(new Set(["host-2"]));
    expect([...profiles.forecasts(NOW_MS).keys()]).to.deep.equal(["host-2"]);
  });

  it("given a host polled on one day only, learns it but forecasts nothing for it (prediction off for that host)", () => {
    const profiles = new HostLoadProfiles();
    profiles.recordInventory(inventoryOf([hostView({ id: "host-1" })], []), 20);
    expect(profiles.learntHosts).to.equal(1);
    expect(profiles.forecasts(NOW_MS).size).to.equal(0);
  });
});
