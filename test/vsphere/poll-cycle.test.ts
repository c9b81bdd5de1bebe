import { expect } from "chai";
import NodeCache from "node-cache";
import { silentLogger } from "../../src/observability/logger.js";
import type { HostSummary, VmSummary } from "../../src/vsphere/automation-client.js";
import { runPollCycle, type PollCycleDeps } from "../../src/vsphere/poll-cycle.js";
import { VcenterHttpError } from "../../src/vsphere/vcenter-http-error.js";
import type { PerfCounterInfo, PerfEntityMetric, PerfQuerySpec } from "../../src/vsphere/vijson-types.js";

const CATALOGUE: PerfCounterInfo[] = [{ key: 55, groupInfo: { key: "cpu" }, nameInfo: { key: "ready" }, rollupType: "summation" }];
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
    const view = await runPollCycle(w.deps);
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
    const view = await runPollCycle(w.deps);
    expect(w.biosFetches).to.deep.equal(["vm-1", "vm-2"]);
    expect(view.vms.get("vm-1")?.biosUuid).to.equal("uuid-vm-1");
    expect(w.deps.cache.keys().filter((k) => k.startsWith("bios:"))).to.deep.equal(["bios:vm-1"]);
  });

  it("given vcenter.clusters, lists only the named clusters' hosts and labels them", async () => {
    const w = world({ vmsByHost: { "host-1": [], "host-2": [] }, clusters: { "prod-a": ["host-1"], "prod-b": ["host-2"] } });
    const view = await runPollCycle({ ...w.deps, clusterNames: ["prod-b", "nope"] });
    expect([...view.hosts.keys()]).to.deep.equal(["host-2"]);
    expect(view.hosts.get("host-2")?.clusterName).to.equal("prod-b");
  });

  it("given no vcenter.clusters, keeps standalone hosts and labels clustered ones", async () => {
    const w = world({ vmsByHost: { "host-1": [], "host-9": [] }, clusters: { "prod-a": ["host-1"] } });
    const view = await runPollCycle(w.deps);
    expect(view.hosts.get("host-1")?.clusterName).to.equal("prod-a");
    expect(view.hosts.get("host-9")?.clusterName).to.equal(undefined);
    expect(view.hosts.size).to.equal(2);
  });
});
