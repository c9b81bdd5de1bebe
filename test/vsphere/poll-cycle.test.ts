import { expect } from "chai";
import NodeCache from "node-cache";
import { silentLogger } from "../../src/observability/logger.js";
import type { HostSummary, VmSummary } from "../../src/vsphere/automation-client.js";
import { HOST_COUNTER_NAMES, VM_COUNTER_NAMES } from "../../src/vsphere/counter-catalogue.js";
import { runPollCycle, type PollCycleDeps } from "../../src/vsphere/poll-cycle.js";
import { VcenterAuthError } from "../../src/vsphere/vcenter-auth-error.js";
import { VcenterHttpError } from "../../src/vsphere/vcenter-http-error.js";
import type { PerfCounterInfo, PerfEntityMetric, PerfQuerySpec } from "../../src/vsphere/vijson-types.js";

const CATALOGUE: PerfCounterInfo[] = [{ key: 55, groupInfo: { key: "cpu" }, nameInfo: { key: "ready" }, rollupType: "summation" }];
/** Every counter of the catalogue: what the poll asks for when every metric rule is on. */
const ALL_COUNTERS = { host: HOST_COUNTER_NAMES, vm: VM_COUNTER_NAMES };
const hostOf = (id: string): HostSummary => ({ host: id, name: id, connection_state: "CONNECTED" });
const vmOf = (id: string): VmSummary => ({ vm: id, name: id, power_state: "POWERED_ON", cpu_count: 1, memory_size_MiB: 1024 });

function world(opts: { vmsByHost: Record<string, string[]>; gone?: string[]; clusters?: Record<string, string[]> }) {
  const perfCalls: PerfQuerySpec[][] = [];
  const biosFetches: string[] = [];
  const clusters = opts.clusters ?? {};
  const deps: PollCycleDeps = {
    automation: {
      listClusters: async () => Object.keys(clusters).map((name, i) => ({ cluster: `domain-c${i}`, name })),
      listHosts: async (ids?: readonly string[]) => {
        if (!ids) return Object.keys(opts.vmsByHost).map(hostOf);
        return ids.flatMap((id) => clusters[Object.keys(clusters)[Number(id.slice("domain-c".length))] ?? ""] ?? []).map(hostOf);
      },
      listVmsOnHost: async (hostId: string) => (opts.vmsByHost[hostId] ?? []).map(vmOf),
      getVmBiosUuid: async (vmId: string) => {
        biosFetches.push(vmId);
        return `uuid-${vmId}`;
      },
    },
    vijson: {
      perfCounters: async () => CATALOGUE,
      hostSummary: async () => ({ hardware: { numCpuCores: 4, cpuMhz: 2000, memorySize: 1024 ** 3 } }),
      queryPerf: async (specs: readonly PerfQuerySpec[]): Promise<PerfEntityMetric[]> => {
        perfCalls.push([...specs]);
        if (specs.some((s) => opts.gone?.includes(s.entity.value))) {
          throw new VcenterHttpError("vijson", "POST QueryPerf", 500, "ManagedObjectNotFound");
        }
        return specs
          .filter((s) => s.entity.type === "VirtualMachine")
          .map((s) => ({
            entity: { type: s.entity.type, value: s.entity.value },
            sampleInfo: [{ timestamp: "2026-11-29T10:00:20Z", interval: 20 }],
            value: [{ id: { counterId: 55, instance: "" }, value: [2000] }],
          }));
      },
    },
    clusterNames: [],
    counters: ALL_COUNTERS,
    cache: new NodeCache({ useClones: false, checkperiod: 0 }),
    counterTtlSeconds: 3600,
    log: silentLogger(),
    clock: () => 42,
  };
  return { deps, perfCalls, biosFetches };
}

describe("runPollCycle", () => {
  it("given a VM that vanished before QueryPerf, skips it and keeps the others' samples", async () => {
    const w = world({ vmsByHost: { "host-1": ["vm-1", "vm-gone", "vm-3"] }, gone: ["vm-gone"] });
    const { view } = await runPollCycle(w.deps);
    // 2000 ms / 20 s on 1 vCPU = 10 %
    expect(view.vms.get("vm-1")?.metrics?.cpuReadyPercent).to.equal(10);
    expect(view.vms.get("vm-3")?.metrics?.cpuReadyPercent).to.equal(10);
    expect(view.vms.get("vm-gone")?.metrics).to.equal(undefined);
    // one refused batch, then one query per VM (the catalogue has no host counter here)
    expect(w.perfCalls.length).to.equal(1 + 3);
  });

  it("given a second cycle, reuses cached BIOS UUIDs and forgets vanished VMs", async () => {
    const vmsByHost = { "host-1": ["vm-1", "vm-2"] };
    const w = world({ vmsByHost });
    await runPollCycle(w.deps);
    vmsByHost["host-1"] = ["vm-1"];
    const { view } = await runPollCycle(w.deps);
    expect(w.biosFetches).to.deep.equal(["vm-1", "vm-2"]);
    expect(view.vms.get("vm-1")?.biosUuid).to.equal("uuid-vm-1");
    expect(w.deps.cache.keys().filter((k) => k.startsWith("bios:"))).to.deep.equal(["bios:vm-1"]);
  });

  it("given vcenter.clusters, lists only the named clusters' hosts and labels them", async () => {
    const w = world({ vmsByHost: { "host-1": [], "host-2": [] }, clusters: { "prod-a": ["host-1"], "prod-b": ["host-2"] } });
    const { view } = await runPollCycle({ ...w.deps, clusterNames: ["prod-b", "nope"] });
    expect([...view.hosts.keys()]).to.deep.equal(["host-2"]);
    expect(view.hosts.get("host-2")?.clusterName).to.equal("prod-b");
  });

  it("given no vcenter.clusters, keeps standalone hosts and labels clustered ones", async () => {
    const w = world({ vmsByHost: { "host-1": [], "host-9": [] }, clusters: { "prod-a": ["host-1"] } });
    const { view } = await runPollCycle(w.deps);
    expect(view.hosts.get("host-1")?.clusterName).to.equal("prod-a");
    expect(view.hosts.get("host-9")?.clusterName).to.equal(undefined);
    expect(view.hosts.size).to.equal(2);
  });
});

/** A fake vCenter for the isolation tests: two counters, per-host failures, an optional metric limit and clock. */
function fleet(opts: {
  hosts: Record<string, string[]>;
  failSummary?: string[];
  failVmList?: string[];
  failPerfFor?: string[];
  authFailOn?: string;
  maxMetrics?: number;
  vcenterAheadMs?: number;
  clockMs?: number;
}) {
  const catalogue: PerfCounterInfo[] = [
    { key: 55, groupInfo: { key: "cpu" }, nameInfo: { key: "ready" }, rollupType: "summation" },
    { key: 66, groupInfo: { key: "cpu" }, nameInfo: { key: "usage" }, rollupType: "average" },
  ];
  const now = opts.clockMs ?? Date.UTC(2026, 10, 29, 10, 0, 30);
  const vcNow = now + (opts.vcenterAheadMs ?? 0);
  const sampleAt = new Date(Math.floor(vcNow / 20_000) * 20_000).toISOString();
  const hostOfVm = new Map(Object.entries(opts.hosts).flatMap(([h, vms]) => vms.map((v) => [v, h] as const)));
  const perfSizes: number[] = [];
  const boom = (what: string) => new VcenterHttpError("vijson", what, 500, "SystemError");
  const deps: PollCycleDeps = {
    automation: {
      listClusters: async () => [],
      listHosts: async () => Object.keys(opts.hosts).map(hostOf),
      listVmsOnHost: async (hostId: string) => {
        if (opts.failVmList?.includes(hostId)) throw new VcenterHttpError("automation", "GET /api/vcenter/vm", 500, "ERROR");
        return (opts.hosts[hostId] ?? []).map(vmOf);
      },
      getVmBiosUuid: async (vmId: string) => `uuid-${vmId}`,
    },
    vijson: {
      perfCounters: async () => catalogue,
      hostSummary: async (hostId: string) => {
        if (opts.authFailOn === hostId) throw new VcenterAuthError("vijson", "login refused (500 InvalidLogin)");
        if (opts.failSummary?.includes(hostId)) throw boom(`GET HostSystem/${hostId}/summary`);
        return { hardware: { numCpuCores: 4, cpuMhz: 2000, memorySize: 1024 ** 3 } };
      },
      queryPerf: async (specs: readonly PerfQuerySpec[]): Promise<PerfEntityMetric[]> => {
        const size = specs.reduce((n, s) => n + s.metricId.length, 0);
        perfSizes.push(size);
        if (opts.maxMetrics !== undefined && size > opts.maxMetrics) {
          throw new VcenterHttpError("vijson", "POST QueryPerf", 500, "RestrictedByAdministrator", {
            faultDetail: "vpxd.stats.maxQueryMetrics",
          });
        }
        const owner = (s: PerfQuerySpec) => (s.entity.type === "HostSystem" ? s.entity.value : hostOfVm.get(s.entity.value));
        if (specs.some((s) => opts.failPerfFor?.includes(owner(s) ?? ""))) throw boom("POST QueryPerf");
        return specs.map((s) => ({
          entity: { type: s.entity.type, value: s.entity.value },
          sampleInfo: [{ timestamp: sampleAt, interval: 20 }],
          value: s.metricId.map((m) => ({ id: { counterId: m.counterId, instance: "" }, value: [m.counterId === 55 ? 2000 : 5000] })),
        }));
      },
      currentTimeMs: async () => vcNow,
    },
    clusterNames: [],
    counters: ALL_COUNTERS,
    cache: new NodeCache({ useClones: false, checkperiod: 0 }),
    counterTtlSeconds: 3600,
    log: silentLogger(),
    clock: () => now,
  };
  return { deps, perfSizes, now, sampleAtMs: Date.parse(sampleAt) };
}

describe("runPollCycle: one host's failure does not blind the fleet", () => {
  const hosts = { "host-1": ["vm-1", "vm-2"], "host-2": ["vm-3"], "host-3": ["vm-4"] };

  const cases: Array<{ name: string; opts: Partial<Parameters<typeof fleet>[0]>; reason: string }> = [
    { name: "its HostSystem summary failing", opts: { failSummary: ["host-2"] }, reason: "summary" },
    { name: "its VM list failing", opts: { failVmList: ["host-2"] }, reason: "vm_list" },
    { name: "the QueryPerf batch of its entities failing", opts: { failPerfFor: ["host-2"], maxMetrics: undefined }, reason: "perf" },
  ];
  for (const c of cases) {
    it(`given ${c.name}, publishes the other hosts and keeps host-2's previous entry with its old sample times`, async () => {
      const first = fleet({ hosts, clockMs: Date.UTC(2026, 10, 29, 9, 58, 0) });
      const { view: previous } = await runPollCycle(first.deps);
      const oldHost2 = previous.hosts.get("host-2")!;
      // batches of 2 metrics mix hosts ([host-1, vm-1], [vm-2, host-2], ...): a failed batch is retried host by host
      const later = fleet({ hosts, ...c.opts });
      const out = await runPollCycle({ ...later.deps, previous, perfLimit: { maxMetrics: 2 } });
      expect([...out.hostFailures.keys()]).to.deep.equal(["host-2"]);
      expect(out.hostFailures.get("host-2")?.reason).to.equal(c.reason);
      expect(out.view.hosts.get("host-2")).to.equal(oldHost2);
      expect(out.view.hosts.get("host-2")?.metrics?.sampledAtMs).to.equal(first.sampleAtMs);
      expect(out.view.vms.get("vm-3")).to.equal(previous.vms.get("vm-3"));
      for (const id of ["host-1", "host-3"]) expect(out.view.hosts.get(id)?.metrics?.sampledAtMs).to.equal(later.sampleAtMs);
      expect(out.view.polledAtMs).to.equal(later.now);
    });
  }

  it("given a failing host with no previous entry, leaves it out and still publishes the others", async () => {
    const w = fleet({ hosts, failSummary: ["host-3"] });
    const out = await runPollCycle(w.deps);
    expect([...out.view.hosts.keys()].sort()).to.deep.equal(["host-1", "host-2"]);
    expect(out.hostFailures.get("host-3")?.reason).to.equal("summary");
  });

  it("given a failed host no longer in vCenter's host list, drops its previous entry and its VMs", async () => {
    const { view: previous } = await runPollCycle(fleet({ hosts }).deps);
    const listed = { "host-1": hosts["host-1"], "host-3": hosts["host-3"] };
    const out = await runPollCycle({ ...fleet({ hosts: listed, failSummary: ["host-1"] }).deps, previous });
    expect([...out.view.hosts.keys()].sort()).to.deep.equal(["host-1", "host-3"]);
    expect(out.view.vms.has("vm-3")).to.equal(false);
  });

  it("given every host failing, fails the cycle (nothing new was learned)", async () => {
    const err = await runPollCycle(fleet({ hosts, failSummary: ["host-1", "host-2", "host-3"] }).deps).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterHttpError);
  });

  it("given a refused login on one host's call, fails the whole cycle", async () => {
    const err = await runPollCycle(fleet({ hosts, authFailOn: "host-2" }).deps).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterAuthError);
  });

  it("given the host list failing, fails the cycle", async () => {
    const w = fleet({ hosts });
    const deps = {
      ...w.deps,
      automation: {
        ...w.deps.automation,
        listHosts: async () => Promise.reject(new VcenterHttpError("automation", "GET /api/vcenter/host", 503, "SERVICE_UNAVAILABLE")),
      },
    };
    const err = await runPollCycle(deps).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as VcenterHttpError).status).to.equal(503);
  });
});

describe("runPollCycle: vpxd.stats.maxQueryMetrics", () => {
  const hosts = { "host-1": ["vm-1", "vm-2", "vm-3"], "host-2": ["vm-4", "vm-5"] };
  // 2 hosts x 1 counter (cpu.usage) + 5 VMs x 1 counter (cpu.ready) = 7 metrics

  // The one 7-metric batch is refused, then split into 3 + 3 + 1 (accepted under 5; under 1, halved again down to single metrics).
  const limits = [{ vcenterLimit: 5 }, { vcenterLimit: 1 }];
  for (const c of limits) {
    it(`given vCenter refusing more than ${c.vcenterLimit} metrics, halves and retries until every entity has its sample`, async () => {
      const w = fleet({ hosts, maxMetrics: c.vcenterLimit });
      const perfLimit = { maxMetrics: 256 };
      const out = await runPollCycle({ ...w.deps, perfLimit });
      expect(out.hostFailures.size).to.equal(0);
      expect(perfLimit.maxMetrics).to.be.at.most(c.vcenterLimit);
      for (const vm of ["vm-1", "vm-2", "vm-3", "vm-4", "vm-5"]) expect(out.view.vms.get(vm)?.metrics?.cpuReadyPercent).to.equal(10);
      // the refused queries were larger than the limit; every accepted one fits
      const accepted = w.perfSizes.filter((n) => n <= c.vcenterLimit);
      expect(accepted.reduce((a, b) => a + b, 0)).to.equal(7);
      // next cycle uses the lowered size at once: no refusal
      const again = fleet({ hosts, maxMetrics: c.vcenterLimit });
      await runPollCycle({ ...again.deps, perfLimit });
      expect(again.perfSizes.every((n) => n <= c.vcenterLimit)).to.equal(true);
    });
  }

  it("given several batches refused at once, lowers the shared limit by one halving, not one per batch", async () => {
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, h) => [`host-${h}`, Array.from({ length: 7 }, (_, v) => `vm-${h}${v}`)]));
    // 4 x (1 + 7) = 32 metrics in batches of 8: four batches, all refused by a limit of 4
    const w = fleet({ hosts: many, maxMetrics: 4 });
    const perfLimit = { maxMetrics: 8 };
    const out = await runPollCycle({ ...w.deps, perfLimit });
    expect(out.hostFailures.size).to.equal(0);
    expect(perfLimit.maxMetrics).to.equal(4);
  });

  it("given InvalidArgument querySpec.size (older builds), halves too", async () => {
    const w = fleet({ hosts });
    const base = w.deps.vijson.queryPerf;
    const deps = {
      ...w.deps,
      vijson: {
        ...w.deps.vijson,
        queryPerf: async (specs: readonly PerfQuerySpec[]) => {
          if (specs.reduce((n, s) => n + s.metricId.length, 0) > 6)
            throw new VcenterHttpError("vijson", "POST QueryPerf", 500, "InvalidArgument", { faultDetail: "querySpec.size" });
          return base(specs);
        },
      },
    };
    const perfLimit = { maxMetrics: 256 };
    const out = await runPollCycle({ ...deps, perfLimit });
    expect(out.hostFailures.size).to.equal(0);
    expect(perfLimit.maxMetrics).to.be.at.most(6);
  });

  it("given a RestrictedByAdministrator about another setting, does not split and fails the batch's hosts", async () => {
    const w = fleet({ hosts });
    const deps = {
      ...w.deps,
      vijson: {
        ...w.deps.vijson,
        queryPerf: async () =>
          Promise.reject(
            new VcenterHttpError("vijson", "POST QueryPerf", 500, "RestrictedByAdministrator", { faultDetail: "vpxd.other.limit" }),
          ),
      },
    };
    const perfLimit = { maxMetrics: 256 };
    const err = await runPollCycle({ ...deps, perfLimit }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterHttpError);
    expect(perfLimit.maxMetrics).to.equal(256);
  });
});

describe("runPollCycle: one clock", () => {
  for (const aheadS of [600, -600]) {
    it(`given vCenter's clock ${aheadS > 0 ? "ahead" : "behind"} by ${Math.abs(aheadS)} s, converts sample times to the local clock`, async () => {
      const w = fleet({ hosts: { "host-1": ["vm-1"] }, vcenterAheadMs: aheadS * 1000 });
      const out = await runPollCycle(w.deps);
      expect(out.clockOffsetMs).to.equal(aheadS * 1000);
      expect(out.clockMeasured).to.equal(true);
      const sampled = out.view.hosts.get("host-1")!.metrics!.sampledAtMs;
      expect(sampled).to.equal(w.sampleAtMs - aheadS * 1000);
      expect(w.now - sampled).to.be.within(0, 20_000);
    });
  }

  it("given CurrentTime failing, uses the last offset and says it was not measured", async () => {
    const w = fleet({ hosts: { "host-1": ["vm-1"] }, vcenterAheadMs: 600_000 });
    const deps = {
      ...w.deps,
      vijson: { ...w.deps.vijson, currentTimeMs: async () => Promise.reject(new Error("down")) },
      lastClockOffsetMs: 600_000,
    };
    const out = await runPollCycle(deps);
    expect(out.clockMeasured).to.equal(false);
    expect(out.view.hosts.get("host-1")!.metrics!.sampledAtMs).to.equal(w.sampleAtMs - 600_000);
  });
});
