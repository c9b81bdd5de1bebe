import type { HostView, VmView } from "../model/inventory.js";
import type { HostEntry, PlacementIndex } from "./placement-index.js";
import type { PodTotals } from "./pod-totals.js";

/**
 * What one ESXi host has left for a correlated burst, and the CPU each replica group that bursts
 * together can use on it, for one snapshot pair (the host's sample, its pod list): the per-snapshot facts of
 * the correlated-burst cap (correlated-burst-cap.ts), computed once per host and list.
 */
export interface HostBurstRoom {
  /** Physical CPU capacity, MHz (cores x MHz per core). */
  readonly capacityMhz: number;
  /** Estimated CPU used by the host's VMs that are not Kubernetes nodes, MHz (see `hostBurstRoomOf`). */
  readonly nonKubernetesMhz: number;
  /** capacityMhz - nonKubernetesMhz: what the Kubernetes node VMs may share when their pods burst. */
  readonly roomMhz: number;
  /**
   * CPU each replica group that bursts together (`burstsTogether`) can use on the host: its pods' CPU limits
   * (`PodView.limits`: a container without a limit counts with its request), millicores.
   */
  readonly burstByOwnerMilli: ReadonlyMap<string, number>;
}

/**
 * The host's burst room, or undefined when it cannot be known (no cores, or VMs outside
 * Kubernetes but no CPU usage sample): unknown data is no opinion.
 *
 * The non-Kubernetes load is what the host's CPU usage shows beyond what its pods are expected to
 * use, and never more than the non-node VMs' vCPUs can use:
 *   nonKubernetesMhz = clamp(usage% / 100 x capacity - sum(pod expected cpu) / 1000 x MHz per core,
 *                            0, non-node vCPUs x MHz per core)
 * where usage% is the present sample's or, when the host's history predicts a busier half hour
 * of the day (trusted buckets only, docs/prediction.md), that one: the pods placed now meet
 * the other VMs' daily peak too.
 * vCenter's real-time VM counters in hvx's inventory carry no CPU usage per VM, so the node VMs'
 * share of the host's usage is estimated from their pods' expected demand (original requests:
 * what the pods are expected to use, the burst guard's estimate). A host with no other VM
 * has no non-Kubernetes load, sample or not.
 */
export function hostBurstRoomOf(
  host: HostView,
  vms: ReadonlyMap<string, VmView>,
  nodeVmIds: ReadonlySet<string>,
  /** The sums of the pods on the host's node VMs. */
  pods: PodTotals,
  /** The host's CPU usage % predicted for its busiest trusted half hour (predicted heat's profile); undefined: none. */
  peakUsagePercent?: number,
): HostBurstRoom | undefined {
  const mhzPerCore = host.cpuMhzPerCore;
  if (!(host.cpuCores > 0) || !(mhzPerCore > 0)) return undefined;
  const capacityMhz = host.cpuCores * mhzPerCore;
  const podsMilli = pods.cpuDemandMilli;
  let otherVcpus = 0;
  for (const id of host.vmIds) {
    const vm = nodeVmIds.has(id) ? undefined : vms.get(id);
    if (vm?.powerState === "POWERED_ON") otherVcpus += vm.vcpus;
  }
  let nonKubernetesMhz = 0;
  if (otherVcpus > 0) {
    const present = host.metrics?.cpuUsagePercent;
    if (present === undefined) return undefined;
    const usage = Math.max(present, peakUsagePercent ?? 0);
    const beyondPodsMhz = (usage / 100) * capacityMhz - (podsMilli / 1000) * mhzPerCore;
    nonKubernetesMhz = Math.min(otherVcpus * mhzPerCore, Math.max(0, beyondPodsMhz));
  }
  return { capacityMhz, nonKubernetesMhz, roomMhz: capacityMhz - nonKubernetesMhz, burstByOwnerMilli: pods.burstLimitsMilliByOwner };
}

const rooms = new WeakMap<HostEntry, { readonly byBucket: ArrayLike<number> | undefined; readonly room: HostBurstRoom | undefined }>();

/**
 * `hostBurstRoomOf` for a host entry of the placement index, once per entry and forecast: an
 * entry is one host's sample and pod list, shared by every request of the snapshot (and by
 * later snapshots while neither changes).
 */
export function burstRoomOf(index: PlacementIndex, entry: HostEntry): HostBurstRoom | undefined {
  const byBucket = index.inventory.forecasts?.get(entry.host.id)?.cpuUsageByBucket;
  const known = rooms.get(entry);
  if (known && known.byBucket === byBucket) return known.room;
  const occupancy = index.occupancy;
  const nodeVmIds = new Set<string>();
  for (const name of occupancy?.nodesOnHost.get(entry.host.id) ?? []) {
    const vm = occupancy!.vmOfNode.get(name);
    if (vm) nodeVmIds.add(vm.id);
  }
  const room = hostBurstRoomOf(entry.projected, index.inventory.vms, nodeVmIds, entry.totals, peakOf(byBucket));
  rooms.set(entry, { byBucket, room });
  return room;
}

/** The highest known value (NaN: unknown); undefined when none is known. */
function peakOf(values: ArrayLike<number> | undefined): number | undefined {
  let peak: number | undefined;
  for (let i = 0; i < (values?.length ?? 0); i++) {
    const v = values![i]!;
    if (!Number.isNaN(v) && (peak === undefined || v > peak)) peak = v;
  }
  return peak;
}
