import { expect } from "chai";
import type { HostForecast } from "../../src/model/host-forecast.js";
import { PROFILE_BUCKET_MS } from "../../src/placement/load-profile.js";
import { buildDebugHosts } from "../../src/server/debug-view.js";
import { hostView, inventoryOf, NOW_MS } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

const forecast: HostForecast = {
  fromMs: NOW_MS,
  bucketMs: PROFILE_BUCKET_MS,
  byBuckets: Array.from({ length: 48 }, (_, k) => (k < 8 ? {} : { cpuReadyPercent: { value: 14, minuteOfDay: 840, days: 7 } })),
};
const inventory = {
  ...inventoryOf([hostView({ id: "host-1", name: "esx-01" }), hostView({ id: "host-2", name: "esx-02" })], []),
  forecasts: new Map([["host-1", forecast]]),
};

describe("GET /debug/hosts: prediction", () => {
  it("given a host with a forecast, names its predicted peak, the heat it gives a long-lived pod and the reason", () => {
    const [peaky, flat] = buildDebugHosts(inventory, DEFAULT_POLICY, NOW_MS).hosts;
    expect(peaky!.heat).to.equal("cool");
    expect(peaky!.prediction).to.deep.equal({
      horizonHours: 24,
      from: new Date(NOW_MS).toISOString(),
      peaks: { cpuReadyPercent: { value: 14, around: "14:00 UTC", days: 7, percentile: 90 } },
      heat: "warm",
      reasons: ["ESXi host esx-01 (host-1): predicted cpu ready 14% >= 10% around 14:00 UTC (p90 of 7 days)"],
    });
    expect(flat!.prediction).to.equal(null);
  });

  it("given prediction disabled, shows none", () => {
    const off = policyWith({ prediction: { enabled: false, horizonHours: 24, filter: false } });
    expect(buildDebugHosts(inventory, off, NOW_MS).hosts[0]!.prediction).to.equal(null);
  });
});
