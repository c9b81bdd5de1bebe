import type { InventoryView } from "../model/inventory.js";
import type { Logger } from "../observability/logger.js";
import type { HostLoadProfiles } from "../placement/host-load-profiles.js";
import { resolveCounterKeys, type CounterIndex } from "./counter-catalogue.js";
import { deriveHostMetrics, deriveVmMetrics, type HostVmInput, type MemStateScale } from "../model/derive-metrics.js";
import { indexHistorySamples } from "./history-samples.js";
import { buildPerfBatches, type PerfTarget, type PerfWindow } from "./perf-batches.js";
import { historyHostSamples, historyVmSamples } from "./perf-samples.js";
import type { EntityHistory } from "./entity-history.js";
import { queryBatch, type PerfLimit } from "./poll-cycle.js";
import { VcenterAuthError } from "./vcenter-auth-error.js";
import type { VijsonClient } from "./vijson-client.js";
import type { PerfEntityMetric, PerfQuerySpec } from "./vijson-types.js";
import type { WantedCounters } from "./wanted-counters.js";

const DAY_MS = 86_400_000;

/**
 * Hosts whose history is read, indexed and recorded at a time. A day at 300 s is 288 samples per
 * host and per VM, each held until recorded: all 250 hosts x 20 VMs of a large vCenter at once
 * was 1.5 million samples and over 600 MB, past the manifest's 384 MB heap.
 */
const HOSTS_PER_READ = 10;

/**
 * Work done between two turns of the event loop: history is indexed and recorded in slices of
 * about this long (and one host at most), so a placement request waits behind a slice, not
 * behind a group of hosts (10 hosts x 20 VMs x 576 samples held the loop for 0.5-1 s). A
 * request arriving during a slice waits for its rest; on a loaded node a slice's CPU also
 * stretches in wall time, so slices are short: 2 ms (one turn costs microseconds).
 */
const SLICE_MS = 2;

/**
 * Metrics per historical QueryPerf, below vCenter's limit: a reply is parsed (JSON, then its
 * schema) in one piece, and a full 256-metric batch of 288 samples each held the loop 40-80 ms.
 */
const HISTORY_METRICS_PER_QUERY = 32;

/**
 * What a warm start reads, oldest first: vCenter's default "Past week" interval (1800 s) for
 * the six days before yesterday, then "Past day" (300 s) for the last 24 h.
 */
export const HISTORY_WINDOWS: ReadonlyArray<{ readonly intervalId: number; readonly fromAgoMs: number; readonly toAgoMs: number }> = [
  { intervalId: 1800, fromAgoMs: 7 * DAY_MS, toAgoMs: DAY_MS },
  { intervalId: 300, fromAgoMs: DAY_MS, toAgoMs: 0 },
];

export interface WarmStartDeps {
  readonly vijson: Pick<VijsonClient, "queryPerf">;
  readonly log: Logger;
  readonly perfLimit: PerfLimit;
  readonly index: CounterIndex;
  readonly memStateScale: MemStateScale;
  /** The counters asked for, as in the real-time poll. */
  readonly counters: WantedCounters;
}

export interface WarmStartOutcome {
  /** Hosts whose profile got at least one historical sample. */
  readonly warmedHosts: number;
  /** Host samples recorded. */
  readonly samples: number;
  /** Windows vCenter refused or could not answer (fault, timeout): that history stays unknown. */
  readonly failedWindows: number;
}

/**
 * Reads the hosts' and their VMs' historical statistics (QueryPerf, `intervalId` 1800 then 300,
 * `startTime`/`endTime` set, batched within maxQueryMetrics like the real-time poll) and records
 * each host sample into its load profile. Host ready % is derived like a real-time sample (the
 * same `deriveHostMetrics`), over the VMs on the host now (a VM moved since counts where it is
 * now), with `cpu.ready.summation` read per the sample's own interval: ms per 300 or 1800 s.
 * A window vCenter refuses (no such interval: InvalidArgument) or keeps nothing for (statistics
 * level, disabled interval: empty answer) leaves the profile as it was: never an error.
 * `vcenterNowMs` is on vCenter's clock; samples are stored on the local one (minus `offsetMs`).
 */
export async function warmStartHistory(
  deps: WarmStartDeps,
  view: InventoryView,
  hostIds: readonly string[],
  profiles: HostLoadProfiles,
  vcenterNowMs: number,
  offsetMs: number,
): Promise<WarmStartOutcome> {
  const hostKeys = resolveCounterKeys(deps.index, deps.counters.host).keys;
  const vmKeys = resolveCounterKeys(deps.index, deps.counters.vm).keys;
  const failedWindows = new Set<number>();
  let samples = 0;
  const warmed = new Set<string>();
  const slices = new Slices();
  for (let from = 0; from < hostIds.length; from += HOSTS_PER_READ) {
    const group = hostIds.slice(from, from + HOSTS_PER_READ);
    const entitiesOf = new Map<string, string[]>();
    const targets: PerfTarget[] = [];
    for (const id of group) {
      const host = view.hosts.get(id);
      if (!host || host.connectionState !== "CONNECTED") continue;
      const entities = [id];
      targets.push({ type: "HostSystem", id, counterIds: hostKeys });
      for (const vmId of host.vmIds) {
        if (view.vms.get(vmId)?.powerState !== "POWERED_ON") continue;
        entities.push(vmId);
        targets.push({ type: "VirtualMachine", id: vmId, counterIds: vmKeys });
      }
      entitiesOf.set(id, entities);
    }
    if (targets.length === 0) continue;
    for (const [w, spec] of HISTORY_WINDOWS.entries()) {
      const window: PerfWindow = {
        intervalId: spec.intervalId,
        startTime: iso(vcenterNowMs - spec.fromAgoMs),
        endTime: iso(vcenterNowMs - spec.toAgoMs),
      };
      const batches = buildPerfBatches(targets, Math.min(HISTORY_METRICS_PER_QUERY, deps.perfLimit.maxMetrics), window);
      const complete = hostsCompleteAfter(batches, entitiesOf);
      const indexed = new Map<string, EntityHistory>();
      // Hosts of the group still to record that read each entity: a VM two hosts list (as a vMotion may show) stays until both are.
      const readers = new Map<string, number>();
      for (const entities of entitiesOf.values()) for (const e of entities) readers.set(e, (readers.get(e) ?? 0) + 1);
      for (const [b, batch] of batches.entries()) {
        let results: PerfEntityMetric[] = [];
        try {
          results = await queryBatch(deps, batch, deps.perfLimit);
        } catch (err) {
          if (err instanceof VcenterAuthError) throw err;
          if (!failedWindows.has(w))
            deps.log.debug(
              { intervalId: spec.intervalId, error: (err as Error)?.message },
              "vCenter history not read for this interval; the load profiles go without it",
            );
          failedWindows.add(w);
        }
        for (const entity of results) {
          indexHistorySamples([entity], deps.index, indexed);
          await slices.due();
        }
        for (const id of complete[b]!) {
          const n = await recordHost(view, id, indexed, profiles, deps.memStateScale, offsetMs, slices);
          if (n > 0) warmed.add(id);
          samples += n;
          for (const entity of entitiesOf.get(id)!) {
            const left = readers.get(entity)! - 1;
            readers.set(entity, left);
            if (left === 0) indexed.delete(entity);
          }
          await slices.next();
        }
      }
    }
  }
  return { warmedHosts: warmed.size, samples, failedWindows: failedWindows.size };
}

async function recordHost(
  view: InventoryView,
  hostId: string,
  indexed: ReadonlyMap<string, EntityHistory>,
  profiles: HostLoadProfiles,
  memStateScale: MemStateScale,
  offsetMs: number,
  slices: Slices,
): Promise<number> {
  const host = view.hosts.get(hostId);
  const history = indexed.get(hostId);
  if (!host || !history) return 0;
  const vms = host.vmIds.flatMap((id) => {
    const vm = view.vms.get(id);
    if (vm?.powerState !== "POWERED_ON") return [];
    const vmHistory = indexed.get(id);
    // Without a sample at a time the VM counts as this input (one object per VM, not per sample).
    const unsampled: HostVmInput = { vcpus: vm.vcpus, memoryMiB: vm.memoryMiB, poweredOn: true };
    return [{ unsampled, sampleAt: vmHistory ? historyVmSamples(vmHistory) : () => undefined }];
  });
  const hostSampleAt = historyHostSamples(history);
  let n = 0;
  for (const atMs of history.times()) {
    await slices.due();
    const inputs: HostVmInput[] = vms.map(({ unsampled, sampleAt }) => {
      const vmSample = sampleAt(atMs);
      return vmSample ? { ...unsampled, metrics: deriveVmMetrics(vmSample, unsampled.vcpus) } : unsampled;
    });
    const metrics = deriveHostMetrics({ raw: hostSampleAt(atMs)!, memoryMiB: host.memoryMiB, vms: inputs, memStateScale });
    if (!metrics) continue;
    profiles.profileOf(hostId).record(atMs - offsetMs, history.intervalSAt(history.rowAt(atMs)!), metrics);
    n++;
  }
  return n;
}

/** Cuts the warm start into slices, a turn of the event loop (setImmediate: after pending I/O) between two. */
class Slices {
  private startMs = performance.now();

  /** Yields when this slice has run SLICE_MS or longer. */
  async due(): Promise<void> {
    if (performance.now() - this.startMs >= SLICE_MS) await this.next();
  }

  /** Ends this slice: yields now, for at least as long as the slice ran. */
  async next(): Promise<void> {
    const ranMs = performance.now() - this.startMs;
    await new Promise<void>((resolve) => setTimeout(resolve, ranMs));
    this.startMs = performance.now();
  }
}

/**
 * The hosts whose every entity (the host, its VMs) has had its last metric asked by batch `b`,
 * by batch: such a host is recorded and its history dropped right after that batch's answer, so
 * a group holds one or two hosts' rows at a time, not ten.
 */
function hostsCompleteAfter(
  batches: ReadonlyArray<readonly PerfQuerySpec[]>,
  entitiesOf: ReadonlyMap<string, readonly string[]>,
): string[][] {
  const lastBatchOf = new Map<string, number>();
  for (const [b, batch] of batches.entries()) for (const spec of batch) lastBatchOf.set(spec.entity.value, b);
  const out = batches.map((): string[] => []);
  for (const [hostId, entities] of entitiesOf) {
    const last = Math.max(...entities.map((e) => lastBatchOf.get(e) ?? -1));
    // A host none of whose counters vCenter knows is asked nothing and has nothing to record.
    if (last >= 0) out[last]!.push(hostId);
  }
  return out;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
