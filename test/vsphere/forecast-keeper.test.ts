import { expect } from "chai";
import { Registry } from "prom-client";
import type { InventoryView } from "../../src/model/inventory.js";
import { silentLogger } from "../../src/observability/logger.js";
import { HostLoadProfiles } from "../../src/placement/host-load-profiles.js";
import { LoadProfile } from "../../src/placement/load-profile.js";
import { ForecastKeeper, type HistoryReader } from "../../src/vsphere/forecast-keeper.js";
import { createPredictionMetrics } from "../../src/vsphere/prediction-metrics.js";
import { NOW_MS, hostView, inventoryOf } from "../fixtures/inventory.js";

const HOUR_MS = 3_600_000;
const HOSTS = ["host-0", "host-1", "host-2"];

/** A week of 1800 s samples for a host, busier by day (8-20 h) than by night. */
function recordWeek(profiles: HostLoadProfiles, hostId: string): number {
  let n = 0;
  for (let t = NOW_MS - 7 * 24 * HOUR_MS; t < NOW_MS; t += HOUR_MS / 2) {
    const hour = new Date(t).getUTCHours();
    const busy = hour >= 8 && hour < 20 ? 70 : 20;
    profiles.profileOf(hostId).record(t, 1800, { cpuUsagePercent: busy + hostId.length, memUsagePercent: 40, cpuReadyPercent: 1 });
    n++;
  }
  return n;
}

/** vCenter's history of every host asked, after a turn of I/O (the poll that started the warm start has published by then). */
const readWeek: HistoryReader = async (_view, hostIds, profiles) => {
  await new Promise((resolve) => setImmediate(resolve));
  let samples = 0;
  for (const id of hostIds) samples += recordWeek(profiles, id);
  return { warmedHosts: hostIds.length, samples, failedWindows: 0 };
};

/** Hosts without a sample of their own this poll, so that a poll records nothing into the profiles. */
function view(polledAtMs: number): InventoryView {
  return {
    ...inventoryOf(
      HOSTS.map((id) => hostView({ id, name: id, metrics: null })),
      [],
    ),
    polledAtMs,
  };
}

describe("ForecastKeeper: the warm start's percentiles", () => {
  const original = { means: LoadProfile.prototype.bucketMeans, percentiles: LoadProfile.prototype.bucketPercentiles };
  let bucketMeansCalls = 0;
  let events: string[] = [];
  beforeEach(() => {
    bucketMeansCalls = 0;
    events = [];
    LoadProfile.prototype.bucketMeans = function (...args) {
      bucketMeansCalls++;
      return original.means.apply(this, args);
    };
    LoadProfile.prototype.bucketPercentiles = function (...args) {
      events.push("percentiles");
      return original.percentiles.apply(this, args);
    };
  });
  afterEach(() => {
    LoadProfile.prototype.bucketMeans = original.means;
    LoadProfile.prototype.bucketPercentiles = original.percentiles;
  });

  const keeper = (clock: () => number) =>
    new ForecastKeeper({ metrics: createPredictionMetrics(new Registry()), log: silentLogger(), clock, readHistory: readWeek });

  it("given a warm start over, the next poll's forecasts recompute no bucket (the warm start computed them) and equal forecasts computed afresh", async () => {
    const nowMs = NOW_MS + 20_000;
    const k = keeper(() => nowMs);
    k.withForecasts(view(NOW_MS), 0);
    await k.historySettled();
    bucketMeansCalls = 0;
    const next = k.withForecasts(view(nowMs), 0);
    expect(bucketMeansCalls).to.equal(0);
    const fresh = new HostLoadProfiles();
    for (const id of HOSTS) recordWeek(fresh, id);
    expect(next.forecasts).to.deep.equal(fresh.forecasts(nowMs));
    expect(next.forecasts?.size).to.equal(3);
  });

  it("given 3 hosts warmed, computes their percentiles one host per turn of the event loop", async () => {
    const k = keeper(() => NOW_MS);
    let warming = true;
    const turn = () => {
      events.push("turn");
      if (warming) setImmediate(turn);
    };
    k.withForecasts(view(NOW_MS), 0);
    events = [];
    setImmediate(turn);
    await k.historySettled();
    warming = false;
    const during = events.join(" ");
    expect(during.match(/percentiles/g)).to.have.length(3);
    expect(during).not.to.include("percentiles percentiles");
  });
});
