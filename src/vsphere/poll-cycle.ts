import type NodeCache from "node-cache";
import type { HostView, InventoryView, VmView } from "../model/inventory.js";
import type { Logger } from "../observability/logger.js";
import { assembleInventory, type PolledHost } from "./assemble-inventory.js";
import type { AutomationClient, HostSummary } from "./automation-client.js";
import { buildCounterIndex, resolveCounterKeys, type CounterIndex } from "./counter-catalogue.js";
import { buildPerfBatches, countMetrics, windowOf, type PerfTarget } from "./perf-batches.js";
import { indexPerfSamples, type EntitySample } from "./perf-samples.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";
import { VcenterHttpError } from "./vcenter-http-error.js";
import type { VijsonClient } from "./vijson-client.js";
import type { PerfEntityMetric, PerfQuerySpec } from "./vijson-types.js";
import type { WantedCounters } from "./wanted-counters.js";

/** Why one host could not be read this cycle (a bounded metric label). */
export const HOST_FAILURE_REASONS = ["summary", "vm_list", "vm_info", "perf"] as const;
export type HostFailureReason = (typeof HOST_FAILURE_REASONS)[number];

export interface HostFailure {
  readonly reason: HostFailureReason;
  readonly error: unknown;
}

/** QueryPerf size, shared across cycles: lowered in place when vCenter refuses a query as too large. */
export interface PerfLimit {
  maxMetrics: number;
}

export interface PollCycleDeps {
  /** The Automation API, or the SOAP inventory (which reads everything at `beginCycle`). */
  readonly automation: Pick<AutomationClient, "listClusters" | "listHosts" | "listVmsOnHost" | "getVmBiosUuid"> & {
    beginCycle?(): Promise<void>;
  };
  readonly vijson: Pick<VijsonClient, "perfCounters" | "queryPerf" | "hostSummary"> & Partial<Pick<VijsonClient, "currentTimeMs">>;
  /** `vcenter.clusters`: names whose hosts are polled; empty = every host. */
  readonly clusterNames: readonly string[];
  /** The counters asked for (wantedCounters: those some enabled rule or other consumer reads). */
  readonly counters: WantedCounters;
  /** Holds the counter index (`counters`) and BIOS UUIDs (`bios:<vm id>`). */
  readonly cache: NodeCache;
  readonly counterTtlSeconds: number;
  readonly log: Logger;
  /** Local clock, epoch ms. */
  readonly clock: () => number;
  /** The last published view: a host that fails this cycle keeps its entry from it. */
  readonly previous?: InventoryView;
  /** Metrics per QueryPerf (default 256, not shared). */
  readonly perfLimit?: PerfLimit;
  /** vCenter clock minus local clock from an earlier cycle, used when this cycle cannot measure it. */
  readonly lastClockOffsetMs?: number;
}

export interface PollCycleResult {
  readonly view: InventoryView;
  /** Hosts not read this cycle, by id (each kept with its previous entry when there is one). */
  readonly hostFailures: ReadonlyMap<string, HostFailure>;
  /** vCenter clock minus local clock, ms, as measured this cycle (or carried over). */
  readonly clockOffsetMs?: number;
  /** Whether clockOffsetMs was measured this cycle. */
  readonly clockMeasured: boolean;
}

const COUNTERS_KEY = "counters";
const BIOS_PREFIX = "bios:";

type Target = { host: HostSummary; clusterName?: string };

/**
 * One poll cycle: inventory and placement from the Automation API, host summaries and
 * the latest real-time samples from VI/JSON. Each host stands alone: a host whose summary,
 * VM list, VM details or samples cannot be read is reported in `hostFailures` and keeps
 * its previous entry (with its old sample times), while every other host is published.
 * The cycle itself fails only when the host list cannot be read, when a login is refused,
 * or when no host at all could be read. Sample times are converted to the local clock.
 */
export async function runPollCycle(deps: PollCycleDeps): Promise<PollCycleResult> {
  await deps.automation.beginCycle?.();
  const hosts = await listTargetHosts(deps);
  const failures = new Map<string, HostFailure>();
  const fail = (hostId: string, reason: HostFailureReason, error: unknown) => {
    if (error instanceof VcenterAuthError) throw error;
    if (!failures.has(hostId)) failures.set(hostId, { reason, error });
  };
  // Measured before the fan-out, so that the call does not queue behind host requests.
  const measured = await measureClockOffset(deps);
  const [polled, index] = await Promise.all([
    Promise.all(hosts.map((h) => pollHost(deps, h, fail))),
    counterIndex(deps).then(
      (i) => ({ ok: true as const, index: i }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
  ]);
  const read = polled.filter((p): p is PolledHost => p !== undefined);
  if (!index.ok) for (const p of read) fail(p.host.host, "perf", index.error);
  const readable = read.filter((p) => !failures.has(p.host.host));
  const vmHost = new Map(readable.flatMap((p) => p.vms.map((v) => [v.vm, p.host.host] as const)));
  const [biosUuids, rawSamples] = await Promise.all([
    biosUuidsFor(deps, vmHost, fail),
    index.ok ? querySamples(deps, readable, index.index, vmHost, fail) : Promise.resolve(new Map<string, EntitySample>()),
  ]);
  if (hosts.length > 0 && failures.size === hosts.length) {
    // Nothing new was learned: treat it as vCenter failing, not as a healthy cycle.
    throw [...failures.values()][0]!.error;
  }
  const clockOffsetMs = measured ?? deps.lastClockOffsetMs;
  const samples = clockOffsetMs === undefined || clockOffsetMs === 0 ? rawSamples : toLocalClock(rawSamples, clockOffsetMs);
  const fresh = assembleInventory({
    hosts: readable.filter((p) => !failures.has(p.host.host)),
    samples,
    biosUuids,
    memStateScale: index.ok ? index.index.memStateScale : "five",
    polledAtMs: deps.clock(),
  });
  return {
    view: keepFailedHosts(fresh, deps, failures),
    hostFailures: failures,
    ...(clockOffsetMs !== undefined ? { clockOffsetMs } : {}),
    clockMeasured: measured !== undefined,
  };
}

async function listTargetHosts(deps: PollCycleDeps): Promise<Target[]> {
  const clusters = await deps.automation.listClusters();
  const wanted = deps.clusterNames.length > 0 ? clusters.filter((c) => deps.clusterNames.includes(c.name)) : clusters;
  if (deps.clusterNames.length > 0) {
    const found = new Set(wanted.map((c) => c.name));
    const missing = deps.clusterNames.filter((n) => !found.has(n));
    if (missing.length > 0) deps.log.warn({ missing }, "vcenter.clusters names not found in vCenter");
  }
  const [all, perCluster] = await Promise.all([
    deps.clusterNames.length === 0 ? deps.automation.listHosts() : Promise.resolve([]),
    Promise.all(wanted.map(async (c) => (await deps.automation.listHosts([c.cluster])).map((host) => ({ host, clusterName: c.name })))),
  ]);
  const byId = new Map<string, Target>();
  for (const host of all) byId.set(host.host, { host });
  for (const entry of perCluster.flat()) byId.set(entry.host.host, entry);
  return [...byId.values()];
}

type Fail = (hostId: string, reason: HostFailureReason, error: unknown) => void;

async function pollHost(deps: PollCycleDeps, target: Target, fail: Fail): Promise<PolledHost | undefined> {
  const id = target.host.host;
  const [vms, summary] = await Promise.all([
    deps.automation.listVmsOnHost(id).catch((err: unknown) => fail(id, "vm_list", err)),
    deps.vijson.hostSummary(id).catch((err: unknown) => fail(id, "summary", err)),
  ]);
  if (vms === undefined || summary === undefined) return undefined;
  return { host: target.host, summary, vms, ...(target.clusterName !== undefined ? { clusterName: target.clusterName } : {}) };
}

/** The counter catalogue's name/key index, cached `counterTtlSeconds`; logs the wanted counters it lacks. */
export async function counterIndex(
  deps: Pick<PollCycleDeps, "cache" | "vijson" | "log" | "counterTtlSeconds" | "counters">,
): Promise<CounterIndex> {
  const cached = deps.cache.get<CounterIndex>(COUNTERS_KEY);
  if (cached) return cached;
  const index = buildCounterIndex(await deps.vijson.perfCounters());
  const missing = [...deps.counters.vm, ...deps.counters.host].filter((n) => !index.keyByName.has(n));
  if (missing.length > 0) deps.log.warn({ missing }, "vCenter counter catalogue lacks counters; those metrics stay unknown");
  deps.cache.set(COUNTERS_KEY, index, deps.counterTtlSeconds);
  return index;
}

/**
 * BIOS UUIDs never change: fetched once per VM id; entries of vanished VMs are dropped.
 * A failed fetch fails the VM's host (its nodes could not be mapped otherwise).
 */
async function biosUuidsFor(deps: PollCycleDeps, vmHost: ReadonlyMap<string, string>, fail: Fail): Promise<Map<string, string>> {
  for (const key of deps.cache.keys()) {
    if (key.startsWith(BIOS_PREFIX) && !vmHost.has(key.slice(BIOS_PREFIX.length))) deps.cache.del(key);
  }
  const out = new Map<string, string>();
  await Promise.all(
    [...vmHost].map(async ([id, hostId]) => {
      let uuid = deps.cache.get<string>(BIOS_PREFIX + id);
      if (uuid === undefined) {
        let fetched: string | undefined;
        try {
          fetched = await deps.automation.getVmBiosUuid(id);
        } catch (err) {
          fail(hostId, "vm_info", err);
          return;
        }
        if (fetched === undefined) return;
        uuid = fetched;
        deps.cache.set(BIOS_PREFIX + id, uuid, 0);
      }
      out.set(id, uuid);
    }),
  );
  return out;
}

async function querySamples(
  deps: PollCycleDeps,
  polled: readonly PolledHost[],
  index: CounterIndex,
  vmHost: ReadonlyMap<string, string>,
  fail: Fail,
): Promise<Map<string, EntitySample>> {
  const hostKeys = resolveCounterKeys(index, deps.counters.host).keys;
  const vmKeys = resolveCounterKeys(index, deps.counters.vm).keys;
  const targets: PerfTarget[] = [];
  for (const p of polled) {
    if (p.host.connection_state !== "CONNECTED") continue;
    targets.push({ type: "HostSystem", id: p.host.host, counterIds: hostKeys });
    for (const vm of p.vms) {
      if (vm.power_state === "POWERED_ON") targets.push({ type: "VirtualMachine", id: vm.vm, counterIds: vmKeys });
    }
  }
  const limit = deps.perfLimit ?? { maxMetrics: 256 };
  const ownerOf = (spec: PerfQuerySpec) => (spec.entity.type === "HostSystem" ? spec.entity.value : vmHost.get(spec.entity.value)) ?? "";
  const failAll = (specs: readonly PerfQuerySpec[], err: unknown) => {
    for (const hostId of new Set(specs.map(ownerOf))) if (hostId !== "") fail(hostId, "perf", err);
    return [];
  };
  const results = await Promise.all(
    buildPerfBatches(targets, limit.maxMetrics).map((batch) =>
      queryBatch(deps, batch, limit).catch(async (err: unknown) => {
        // A batch mixes hosts. When vCenter answered with a fault, ask host by host so that
        // one host's trouble fails that host alone; without an answer (down, timeout), don't.
        const byHost = groupBy(batch, ownerOf);
        if (!(err instanceof VcenterHttpError) || byHost.size < 2) return failAll(batch, err);
        const parts = await Promise.all(
          [...byHost.values()].map((specs) => queryBatch(deps, specs, limit).catch((e: unknown) => failAll(specs, e))),
        );
        return parts.flat();
      }),
    ),
  );
  return indexPerfSamples(results.flat(), index);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * One QueryPerf. When vCenter refuses it as larger than `vpxd.stats.maxQueryMetrics`
 * (RestrictedByAdministrator, or InvalidArgument `querySpec.size` on older builds), the
 * shared limit is halved and the batch re-split and retried, down to single metrics. A VM
 * deleted between listing and querying makes vCenter refuse the whole batch with
 * ManagedObjectNotFound: then ask spec by spec and skip the vanished ones.
 */
export async function queryBatch(
  deps: { readonly vijson: Pick<VijsonClient, "queryPerf">; readonly log: Logger },
  batch: readonly PerfQuerySpec[],
  limit: PerfLimit,
): Promise<PerfEntityMetric[]> {
  try {
    return await deps.vijson.queryPerf(batch);
  } catch (err) {
    const size = countMetrics(batch);
    if (isTooLarge(err) && size > 1) {
      // Halve this batch's own size: concurrent refusals of equal batches lower the shared limit once, not once each.
      const smaller = Math.max(1, Math.floor(size / 2));
      if (smaller < limit.maxMetrics) {
        deps.log.warn(
          { from: limit.maxMetrics, to: smaller, fault: (err as VcenterHttpError).errorType },
          "vCenter refused a QueryPerf as too large (vpxd.stats.maxQueryMetrics); smaller queries from now on",
        );
        limit.maxMetrics = smaller;
      }
      const parts = buildPerfBatches(batch.map(toTarget), smaller, windowOf(batch[0]));
      return (await Promise.all(parts.map((part) => queryBatch(deps, part, limit)))).flat();
    }
    if (!isNotFound(err) || batch.length === 1) throw err;
    deps.log.debug({ specs: batch.length }, "QueryPerf batch names a vanished entity; querying one by one");
    const singles = await Promise.all(
      batch.map((spec) => queryBatch(deps, [spec], limit).catch((e: unknown) => (isNotFound(e) ? [] : Promise.reject(e)))),
    );
    return singles.flat();
  }
}

function toTarget(spec: PerfQuerySpec): PerfTarget {
  return { type: spec.entity.type, id: spec.entity.value, counterIds: spec.metricId.map((m) => m.counterId) };
}

function isNotFound(err: unknown): boolean {
  return err instanceof VcenterHttpError && err.errorType === "ManagedObjectNotFound";
}

/** The fault vCenter answers a QueryPerf over `vpxd.stats.maxQueryMetrics` with. */
export function isTooLarge(err: unknown): boolean {
  if (!(err instanceof VcenterHttpError)) return false;
  if (err.errorType === "RestrictedByAdministrator") return err.faultDetail === undefined || /maxQueryMetrics/i.test(err.faultDetail);
  return err.errorType === "InvalidArgument" && err.faultDetail === "querySpec.size";
}

/**
 * vCenter's clock minus the local one, ms, from `CurrentTime` (the midpoint of the local
 * clock around the call stands for the moment vCenter read its clock). Undefined when it
 * cannot be read; never rejects.
 */
async function measureClockOffset(deps: PollCycleDeps): Promise<number | undefined> {
  if (!deps.vijson.currentTimeMs) return undefined;
  const before = deps.clock();
  try {
    const server = await deps.vijson.currentTimeMs();
    const after = deps.clock();
    return Math.round(server - (before + after) / 2);
  } catch (err) {
    if (err instanceof VcenterAuthError) return undefined;
    deps.log.debug({ error: (err as Error)?.message }, "vCenter CurrentTime not read; keeping the last clock offset");
    return undefined;
  }
}

/** Sample times from vCenter's clock to the local one. */
function toLocalClock(samples: ReadonlyMap<string, EntitySample>, offsetMs: number): Map<string, EntitySample> {
  const out = new Map<string, EntitySample>();
  for (const [id, s] of samples) out.set(id, { ...s, sampledAtMs: s.sampledAtMs - offsetMs });
  return out;
}

/** Adds each failed host's previous entry (and its VMs not seen elsewhere this cycle) to the fresh view. */
function keepFailedHosts(fresh: InventoryView, deps: PollCycleDeps, failures: ReadonlyMap<string, HostFailure>): InventoryView {
  const previous = deps.previous;
  if (!previous || failures.size === 0) return fresh;
  const hosts = new Map<string, HostView>(fresh.hosts);
  const vms = new Map<string, VmView>(fresh.vms);
  for (const hostId of failures.keys()) {
    const host = previous.hosts.get(hostId);
    if (!host) continue;
    const kept: string[] = [];
    for (const vmId of host.vmIds) {
      const vm = previous.vms.get(vmId);
      if (vms.has(vmId) || !vm) continue; // seen on another host this cycle (vMotion): the fresh entry wins
      vms.set(vmId, vm);
      kept.push(vmId);
    }
    hosts.set(hostId, kept.length === host.vmIds.length ? host : { ...host, vmIds: kept });
  }
  return { hosts, vms, ...(fresh.polledAtMs !== undefined ? { polledAtMs: fresh.polledAtMs } : {}) };
}
