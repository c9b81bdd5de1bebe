import { expect } from "chai";
import { Registry } from "prom-client";
import type { MockVcenterHandle, ScenarioInput } from "../../mocks/vcenter/index.js";
import { configSchema } from "../../src/config/schema.js";
import { silentLogger } from "../../src/observability/logger.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { VcenterPoller } from "../../src/vsphere/vcenter-poller.js";
import { HOST_COUNTER_NAMES, VM_COUNTER_NAMES, type CounterIndex } from "../../src/vsphere/counter-catalogue.js";
import { warmStartHistory, type WarmStartDeps } from "../../src/vsphere/warm-start-history.js";
import { HostLoadProfiles } from "../../src/placement/host-load-profiles.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";
import { PASSWORD, T0_MS, USER, smallScenario, startSmall } from "../mocks/vcenter/mock-vcenter-client.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

interface Rig {
  mock: MockVcenterHandle;
  poller: VcenterPoller;
  registry: Registry;
}

async function rig(patch: Partial<ScenarioInput> = {}, prediction = true): Promise<Rig> {
  const clock = () => T0_MS + 5_000;
  const mock = await startSmall({ clock, scenario: smallScenario(patch) });
  const registry = new Registry();
  const vcenter = configSchema.parse({ vcenter: { url: mock.url, username: USER, password: PASSWORD } }).vcenter;
  const parts = buildVcenterParts({ vcenter, log: silentLogger(), registry });
  const poller = new VcenterPoller({
    vcenter,
    maxMetricAgeSeconds: 120,
    thresholds: DEFAULT_POLICY.thresholds,
    log: silentLogger(),
    ...parts,
    clock,
    random: () => 1,
    prediction: { enabled: prediction },
  });
  return { mock, poller, registry };
}

async function metric(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const data = await registry.getSingleMetric(name)?.get();
  return data?.values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))?.value;
}

/** Polls, lets the warm start finish, polls again: the second snapshot carries the history's forecasts. */
async function pollWarm(r: Rig) {
  await r.poller.pollOnce();
  await r.poller.historySettled();
  await r.poller.pollOnce();
  return r.poller.latest();
}

describe("VcenterPoller: load profiles warm-started from vCenter's history (QueryPerf intervalId 1800 and 300)", function () {
  this.timeout(20_000);
  let r: Rig | undefined;
  afterEach(async () => {
    await r?.poller.stop();
    await r?.mock.close();
    r = undefined;
  });

  it("given 7 days of history, forecasts each host from it, with ready % per interval length (ms per 1800 s and 300 s, not per 20 s)", async () => {
    r = await rig();
    const view = await pollWarm(r);
    const f = view.forecasts?.get("host-1");
    expect(f, "host-1 forecast").to.not.equal(undefined);
    const peak = f!.byBuckets[f!.byBuckets.length - 1]!;
    // host ready = vCPU-weighted VM ready: (10 % x 4 + 2.5 % x 2) / 6 = 7.5 % from every interval
    expect(peak.cpuReadyPercent?.value).to.be.closeTo(7.5, 1e-9);
    expect(peak.cpuUsagePercent?.value).to.be.closeTo(20.67, 1e-9);
    // the 10:00 bucket (the poll's): today's has not begun to fill (samples end by 10:00:00), the
    // one 7 days ago started just over 7 days before: 6 days, 5 of 1800 s and yesterday's 300 s ones
    expect(f!.byBuckets[0]!.cpuReadyPercent?.days).to.equal(6);
    expect(await metric(r.registry, "hvx_prediction_history_hosts_total", { result: "warmed" })).to.equal(2);
    expect(await metric(r.registry, "hvx_prediction_profile_hosts")).to.equal(2);
    // 1800 s: 6 days x 48 per host; 300 s: 288 per host; 2 hosts
    expect(await metric(r.registry, "hvx_prediction_history_samples_total")).to.equal(2 * (6 * 48 + 288));
  });

  it("given a vCenter that keeps no historical intervals, leaves the profiles to the polls: no error, counted empty", async () => {
    r = await rig({ historicalIntervals: [] });
    const view = await pollWarm(r);
    expect(await metric(r.registry, "hvx_prediction_history_hosts_total", { result: "empty" })).to.equal(2);
    expect(r.poller.status().consecutiveFailures).to.equal(0);
    // only the real-time sample of the polls (the same 20 s sample twice, recorded once): one day, not trusted, no forecast
    expect(view.forecasts?.has("host-1")).to.equal(false);
  });

  it("given statistics level 1 and a past-week interval that is disabled, warms from the past day alone", async () => {
    r = await rig({
      historicalIntervals: [
        { key: 1, samplingPeriod: 300, name: "Past day", length: 86400, level: 1, enabled: true },
        { key: 2, samplingPeriod: 1800, name: "Past week", length: 604800, level: 1, enabled: false },
      ],
    });
    const view = await pollWarm(r);
    expect(await metric(r.registry, "hvx_prediction_history_samples_total")).to.equal(2 * 288);
    // every bucket holds one day (yesterday's 300 s samples and today's): below MIN_TRUSTED_DAYS, no forecast
    expect(view.forecasts?.has("host-1")).to.equal(false);
  });

  it("given maxQueryMetrics 4, keeps every historical QueryPerf within it", async () => {
    r = await rig({ advancedSettings: { "config.vpxd.stats.maxQueryMetrics": 4 } });
    await pollWarm(r);
    expect(r.mock.controls.stats().maxMetricsInOneQuery).to.be.at.most(4);
    expect(await metric(r.registry, "hvx_prediction_history_hosts_total", { result: "warmed" })).to.equal(2);
  });

  it("given prediction disabled, publishes no forecasts and reads no history", async () => {
    r = await rig({}, false);
    await r.poller.pollOnce();
    const calls = r.mock.controls.stats().queryPerfCalls;
    const view = await pollWarm(r);
    expect(view.forecasts).to.equal(undefined);
    expect(r.mock.controls.stats().queryPerfCalls - calls).to.equal(2);
  });
});

const COUNTER_NAMES = [...new Set([...HOST_COUNTER_NAMES, ...VM_COUNTER_NAMES])];
const INDEX: CounterIndex = {
  keyByName: new Map(COUNTER_NAMES.map((n, i) => [n, i + 1])),
  nameByKey: new Map(COUNTER_NAMES.map((n, i) => [i + 1, n])),
  memStateScale: "five",
};

const ALL_COUNTERS = { host: HOST_COUNTER_NAMES, vm: VM_COUNTER_NAMES };

function historyDeps(queryPerf: WarmStartDeps["vijson"]["queryPerf"]): WarmStartDeps {
  return {
    vijson: { queryPerf },
    log: silentLogger(),
    perfLimit: { maxMetrics: 1000 },
    index: INDEX,
    memStateScale: "five",
    counters: ALL_COUNTERS,
  };
}

describe("warmStartHistory", () => {
  it("given 25 hosts, reads, indexes and records 10 hosts' history at a time (both intervals), so a large vCenter's day at 300 s is never held whole", async () => {
    const hosts = Array.from({ length: 25 }, (_, h) => hostView({ id: `host-${h}`, name: `esx-${h}` }));
    const vms = hosts.map((h, i) => vmView({ id: `vm-${i}`, name: `node-${i}`, hostId: h.id }));
    const reads: Array<{ intervalId: number; entities: string[]; metrics: number }> = [];
    const outcome = await warmStartHistory(
      historyDeps(async (specs) => {
        reads.push({
          intervalId: specs[0]!.intervalId,
          entities: specs.map((s) => s.entity.value),
          metrics: specs.reduce((n, s) => n + s.metricId.length, 0),
        });
        return [];
      }),
      inventoryOf(hosts, vms),
      hosts.map((h) => h.id),
      new HostLoadProfiles(),
      T0_MS,
      0,
    );
    const groupOf = (entity: string) => Math.floor(Number(entity.split("-")[1]) / 10);
    // Each read asks one group's hosts for one interval; consecutive reads of the same pair collapse.
    const steps = reads.map((r) => `${[...new Set(r.entities.map(groupOf))].join()}@${r.intervalId}`);
    expect(steps.filter((step, i) => step !== steps[i - 1])).to.deep.equal(["0@1800", "0@300", "1@1800", "1@300", "2@1800", "2@300"]);
    // Smaller than vCenter's limit (1000 here): each reply is parsed in one piece.
    expect(Math.max(...reads.map((r) => r.metrics))).to.equal(32);
    expect(new Set(reads.flatMap((r) => r.entities)).size).to.equal(50);
    expect(outcome).to.deep.equal({ warmedHosts: 0, samples: 0, failedWindows: 0 });
  });

  it("given a group's history over three answers, records each host right after the answer that completes it, so the group's rows are never all held", async () => {
    // 3 hosts x (6 host + 4 VMs x 4 VM counters) = 66 metrics: answers of 32 carry host-0; host-1's rest; host-2's rest.
    const hosts = Array.from({ length: 3 }, (_, h) => hostView({ id: `host-${h}`, name: `esx-${h}` }));
    const vms = hosts.flatMap((host, h) =>
      [0, 1, 2, 3].map((k) => vmView({ id: `vm-${h}-${k}`, name: `node-${h}-${k}`, hostId: host.id })),
    );
    const events: string[] = [];
    class LoggedProfiles extends HostLoadProfiles {
      override profileOf(hostId: string) {
        if (events[events.length - 1] !== `record ${hostId}`) events.push(`record ${hostId}`);
        return super.profileOf(hostId);
      }
    }
    const usageKeys = ["cpu.usage.average", "mem.usage.average"].map((n) => INDEX.keyByName.get(n)!);
    const outcome = await warmStartHistory(
      historyDeps(async (specs) => {
        events.push(`answer ${specs[0]!.intervalId} ${[...new Set(specs.map((s) => s.entity.value.split("-")[1]))].join(",")}`);
        return specs.map((s) => ({
          entity: s.entity,
          sampleInfo: [{ timestamp: new Date(T0_MS - s.intervalId * 1000).toISOString(), interval: s.intervalId }],
          value: usageKeys.map((counterId) => ({ id: { counterId, instance: "" }, value: [2500] })),
        }));
      }),
      inventoryOf(hosts, vms),
      hosts.map((h) => h.id),
      new LoggedProfiles(),
      T0_MS,
      0,
    );
    expect(outcome).to.deep.equal({ warmedHosts: 3, samples: 6, failedWindows: 0 });
    const perInterval = ["answer 0,1", "record host-0", "answer 1,2", "record host-1", "answer 2", "record host-2"];
    expect(events).to.deep.equal([
      ...perInterval.map((e) => e.replace("answer", "answer 1800")),
      ...perInterval.map((e) => e.replace("answer", "answer 300")),
    ]);
  });

  it("given a VM two hosts list (as during a vMotion), derives both hosts' ready % from its history", async () => {
    const hosts = [0, 1].map((h) => hostView({ id: `host-${h}`, name: `esx-${h}` }));
    const view = inventoryOf(hosts, [vmView({ id: "vm-1", name: "node-1", hostId: "host-0", vcpus: 2 })]);
    (view.hosts.get("host-1")!.vmIds as string[]).push("vm-1");
    const readyPercent = new Map<string, unknown>();
    const profiles = {
      profileOf: (hostId: string) => ({
        record: (_atMs: number, _s: number, m: { cpuReadyPercent?: number }) => readyPercent.set(hostId, m.cpuReadyPercent),
      }),
    } as unknown as HostLoadProfiles;
    const key = (name: string) => INDEX.keyByName.get(name)!;
    await warmStartHistory(
      historyDeps(async (specs) =>
        specs.map((s) => ({
          entity: s.entity,
          sampleInfo: [{ timestamp: new Date(T0_MS - s.intervalId * 1000).toISOString(), interval: s.intervalId }],
          value: [
            s.entity.type === "HostSystem"
              ? { id: { counterId: key("cpu.usage.average"), instance: "" }, value: [2500] }
              : { id: { counterId: key("cpu.ready.summation"), instance: "" }, value: [s.intervalId * 100] },
          ],
        })),
      ),
      view,
      ["host-0", "host-1"],
      profiles,
      T0_MS,
      0,
    );
    // ready ms per interval / (interval ms x 2 vCPUs) = 100 x s / (1000 x s x 2) = 5 %
    expect(Object.fromEntries(readyPercent)).to.deep.equal({ "host-0": 5, "host-1": 5 });
  });

  it("given 3 hosts' history answered without I/O, gives the event loop a turn between every two hosts' recording, so requests are answered during a warm start", async () => {
    const hosts = Array.from({ length: 3 }, (_, h) => hostView({ id: `host-${h}`, name: `esx-${h}` }));
    const events: string[] = [];
    class LoggedProfiles extends HostLoadProfiles {
      override profileOf(hostId: string) {
        events.push(hostId);
        return super.profileOf(hostId);
      }
    }
    const usageKeys = ["cpu.usage.average", "mem.usage.average"].map((n) => INDEX.keyByName.get(n)!);
    let warming = true;
    const turn = () => {
      events.push("turn");
      if (warming) setImmediate(turn);
    };
    // Scheduled before the warm start: it can run only if the warm start yields to the event loop.
    setImmediate(turn);
    const outcome = await warmStartHistory(
      historyDeps(async (specs) =>
        specs.map((s) => ({
          entity: s.entity,
          sampleInfo: [1, 2, 3].map((k) => ({
            timestamp: new Date(T0_MS - k * s.intervalId * 1000).toISOString(),
            interval: s.intervalId,
          })),
          value: usageKeys.map((counterId) => ({ id: { counterId, instance: "" }, value: [2500, 2600, 2700] })),
        })),
      ),
      inventoryOf(hosts, []),
      hosts.map((h) => h.id),
      new LoggedProfiles(),
      T0_MS,
      0,
    );
    warming = false;
    expect(outcome).to.deep.equal({ warmedHosts: 3, samples: 18, failedWindows: 0 });
    // Between two turns, one host's records at most (a slice may also end inside a host's).
    const slices = events
      .join(" ")
      .split("turn")
      .map((slice) => new Set(slice.trim().split(" ").filter(Boolean)));
    expect(slices.filter((hostsOfSlice) => hostsOfSlice.size > 1)).to.deep.equal([]);
    expect(events.filter((e) => e !== "turn")).to.have.length(18);
  });
});
