import type NodeCache from "node-cache";
import type { InventoryView } from "../model/inventory.js";
import type { Logger } from "../observability/logger.js";
import { assembleInventory, type PolledHost } from "./assemble-inventory.js";
import type { AutomationClient, HostSummary } from "./automation-client.js";
import { buildCounterIndex, HOST_COUNTER_NAMES, resolveCounterKeys, VM_COUNTER_NAMES, type CounterIndex } from "./counter-catalogue.js";
import { buildPerfBatches, type PerfTarget } from "./perf-batches.js";
import { indexPerfSamples } from "./perf-samples.js";
import { VcenterHttpError } from "./vcenter-http-error.js";
import type { VijsonClient } from "./vijson-client.js";
import type { PerfEntityMetric, PerfQuerySpec } from "./vijson-types.js";

export interface PollCycleDeps {
  readonly automation: Pick<AutomationClient, "listClusters" | "listHosts" | "listVmsOnHost" | "getVmBiosUuid">;
  readonly vijson: Pick<VijsonClient, "perfCounters" | "queryPerf" | "hostSummary">;
  /** `vcenter.clusters`: names whose hosts are polled; empty = every host. */
  readonly clusterNames: readonly string[];
  /** Holds the counter index (`counters`) and BIOS UUIDs (`bios:<vm id>`). */
  readonly cache: NodeCache;
  readonly counterTtlSeconds: number;
  readonly log: Logger;
  readonly clock: () => number;
}

const COUNTERS_KEY = "counters";
const BIOS_PREFIX = "bios:";

/**
 * One poll cycle: inventory and placement from the Automation API, host summaries and
 * the latest real-time samples from VI/JSON. Rejects on the first failed request: a
 * half-read inventory is never published. Concurrency is bounded by the HTTP layer.
 */
export async function runPollCycle(deps: PollCycleDeps): Promise<InventoryView> {
  const hosts = await listTargetHosts(deps);
  const [polled, index] = await Promise.all([
    Promise.all(hosts.map((h) => pollHost(deps, h.host, h.clusterName))),
    counterIndex(deps),
  ]);
  const vmIds = polled.flatMap((p) => p.vms.map((v) => v.vm));
  const [biosUuids, samples] = await Promise.all([biosUuidsFor(deps, vmIds), querySamples(deps, polled, index)]);
  return assembleInventory({ hosts: polled, samples, biosUuids, memStateScale: index.memStateScale, polledAtMs: deps.clock() });
}

async function listTargetHosts(deps: PollCycleDeps): Promise<Array<{ host: HostSummary; clusterName?: string }>> {
  const clusters = await deps.automation.listClusters();
  const wanted = deps.clusterNames.length > 0 ? clusters.filter((c) => deps.clusterNames.includes(c.name)) : clusters;
  if (deps.clusterNames.length > 0) {
    const found = new Set(wanted.map((c) => c.name));
    const missing = deps.clusterNames.filter((n) => !found.has(n));
    if (missing.length > 0) deps.log.warn({ missing }, "vcenter.clusters names not found in vCenter");
  }
  const [all, perCluster] = await Promise.all([
    deps.clusterNames.length === 0 ? deps.automation.listHosts() : Promise.resolve([]),
    Promise.all(
      wanted.map(async (c) => (await deps.automation.listHosts([c.cluster])).map((host) => ({ host, clusterName: c.name }))),
    ),
  ]);
  const byId = new Map<string, { host: HostSummary; clusterName?: string }>();
  for (const host of all) byId.set(host.host, { host });
  for (const entry of perCluster.flat()) byId.set(entry.host.host, entry);
  return [...byId.values()];
}

async function pollHost(deps: PollCycleDeps, host: HostSummary, clusterName: string | undefined): Promise<PolledHost> {
  const [vms, summary] = await Promise.all([deps.automation.listVmsOnHost(host.host), deps.vijson.hostSummary(host.host)]);
  return { host, summary, vms, ...(clusterName !== undefined ? { clusterName } : {}) };
}

async function counterIndex(deps: PollCycleDeps): Promise<CounterIndex> {
  const cached = deps.cache.get<CounterIndex>(COUNTERS_KEY);
  if (cached) return cached;
  const index = buildCounterIndex(await deps.vijson.perfCounters());
  const missing = [...VM_COUNTER_NAMES, ...HOST_COUNTER_NAMES].filter((n) => !index.keyByName.has(n));
  if (missing.length > 0) deps.log.warn({ missing }, "vCenter counter catalogue lacks counters; those metrics stay unknown");
  deps.cache.set(COUNTERS_KEY, index, deps.counterTtlSeconds);
  return index;
}

/** BIOS UUIDs never change: fetched once per VM id; entries of vanished VMs are dropped. */
async function biosUuidsFor(deps: PollCycleDeps, vmIds: readonly string[]): Promise<Map<string, string>> {
  const present = new Set(vmIds);
  for (const key of deps.cache.keys()) {
    if (key.startsWith(BIOS_PREFIX) && !present.has(key.slice(BIOS_PREFIX.length))) deps.cache.del(key);
  }
  const out = new Map<string, string>();
  await Promise.all(
    [...present].map(async (id) => {
      let uuid = deps.cache.get<string>(BIOS_PREFIX + id);
      if (uuid === undefined) {
        const fetched = await deps.automation.getVmBiosUuid(id);
        if (fetched === undefined) return;
        uuid = fetched;
        deps.cache.set(BIOS_PREFIX + id, uuid, 0);
      }
      out.set(id, uuid);
    }),
  );
  return out;
}

async function querySamples(deps: PollCycleDeps, polled: readonly PolledHost[], index: CounterIndex) {
  const hostKeys = resolveCounterKeys(index, HOST_COUNTER_NAMES).keys;
  const vmKeys = resolveCounterKeys(index, VM_COUNTER_NAMES).keys;
  const targets: PerfTarget[] = [];
  for (const p of polled) {
    if (p.host.connection_state !== "CONNECTED") continue;
    targets.push({ type: "HostSystem", id: p.host.host, counterIds: hostKeys });
    for (const vm of p.vms) {
      if (vm.power_state === "POWERED_ON") targets.push({ type: "VirtualMachine", id: vm.vm, counterIds: vmKeys });
    }
  }
  const results = await Promise.all(buildPerfBatches(targets).map((batch) => queryBatch(deps, batch)));
  return indexPerfSamples(results.flat(), index);
}

/**
 * A VM deleted between listing and querying makes vCenter refuse the whole batch with
 * ManagedObjectNotFound: then ask entity by entity and skip the vanished ones.
 */
async function queryBatch(deps: PollCycleDeps, batch: readonly PerfQuerySpec[]): Promise<PerfEntityMetric[]> {
  try {
    return await deps.vijson.queryPerf(batch);
  } catch (err) {
    if (!isNotFound(err) || batch.length === 1) throw err;
    deps.log.debug({ specs: batch.length }, "QueryPerf batch names a vanished entity; querying one by one");
    const singles = await Promise.all(
      batch.map((spec) => deps.vijson.queryPerf([spec]).catch((e: unknown) => (isNotFound(e) ? [] : Promise.reject(e)))),
    );
    return singles.flat();
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof VcenterHttpError && err.errorType === "ManagedObjectNotFound";
}
