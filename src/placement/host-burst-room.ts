import type { PodView } from "../model/cluster.js";
import type { HostView, VmView } from "../model/inventory.js";
import type { HostEntry, PlacementIndex } from "./placement-index.js";

/**
 * What one ESXi host has left for a correlated burst, and the expected CPU demand of each replica
 * group on it, for one snapshot pair (the host's sample, its pod list): the per-snapshot facts of
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
   * CPU each replica group's pods on the host can use when they burst together: their CPU limits
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
 * vCenter's real-time VM counters in hvx's inventory carry no CPU usage per VM, so the node VMs'
 * share of the host's usage is estimated from their pods' expected demand (original requests:
 * what the pods are expected to use, the burst guard's estimate). A host with no other VM
 * has no non-Kubernetes load, sample or not.
 */
export function hostBurstRoomOf(
  host: HostView,
  vms: ReadonlyMap<string, VmView>,
  nodeVmIds: ReadonlySet<string>,
  podsOnHost: readonly PodView[],
): HostBurstRoom | undefined {
  const mhzPerCore = host.cpuMhzPerCore;
  if (!(host.cpuCores > 0) || !(mhzPerCore > 0)) return undefined;
  const capacityMhz = host.cpuCores * mhzPerCore;
  const burstByOwnerMilli = new Map<string, number>();
  let podsMilli = 0;
  for (const p of podsOnHost) {
    if (p.terminal) continue;
    podsMilli += p.expectedDemand.cpuMilli;
    if (p.ownerKey !== undefined) burstByOwnerMilli.set(p.ownerKey, (burstByOwnerMilli.get(p.ownerKey) ?? 0) + p.limits.cpuMilli);
  }
  let otherVcpus = 0;
  for (const id of host.vmIds) {
    const vm = nodeVmIds.has(id) ? undefined : vms.get(id);
    if (vm?.powerState === "POWERED_ON") otherVcpus += vm.vcpus;
  }
  let nonKubernetesMhz = 0;
  if (otherVcpus > 0) {
    const usage = host.metrics?.cpuUsagePercent;
    if (usage === undefined) return undefined;
    const beyondPodsMhz = (usage / 100) * capacityMhz - (podsMilli / 1000) * mhzPerCore;
    nonKubernetesMhz = Math.min(otherVcpus * mhzPerCore, Math.max(0, beyondPodsMhz));
  }
  return { capacityMhz, nonKubernetesMhz, roomMhz: capacityMhz - nonKubernetesMhz, burstByOwnerMilli };
}

const rooms = new WeakMap<HostEntry, HostBurstRoom | null>();

/**
 * `hostBurstRoomOf` for a host entry of the placement index, once per entry: an entry is one
 * host's sample and pod list, shared by every request of the snapshot (and by later snapshots
 * while neither changes).
 */
export function burstRoomOf(index: PlacementIndex, entry: HostEntry): HostBurstRoom | undefined {
  const known = rooms.get(entry);
  if (known !== undefined) return known ?? undefined;
  const occupancy = index.occupancy;
  const nodeVmIds = new Set<string>();
  for (const name of occupancy?.nodesOnHost.get(entry.host.id) ?? []) {
    const vm = occupancy!.vmOfNode.get(name);
    if (vm) nodeVmIds.add(vm.id);
  }
  const room = hostBurstRoomOf(entry.projected, index.inventory.vms, nodeVmIds, entry.podsOnHost);
  rooms.set(entry, room ?? null);
  return room;
}
