import type { ClusterView, PodView } from "../model/cluster.js";
import type { HostView, InventoryView, VmView } from "../model/inventory.js";
import { mapNodeToVm, vmIndexOf, type VmIndex } from "./map-node.js";
import type { NodeMappingRule } from "./policy.js";

/**
 * Which Kubernetes nodes (and so which pods) sit on each ESXi host, for one pair of
 * snapshots. Both snapshots are immutable, so the tables and the per-host sums are
 * computed once per pair and shared by every request that sees the same pair.
 */
export interface HostOccupancy {
  /** The VM behind each mapped node. */
  readonly vmOfNode: ReadonlyMap<string, VmView>;
  readonly hostOfNode: ReadonlyMap<string, string>;
  readonly nodesOnHost: ReadonlyMap<string, readonly string[]>;
  /** Non-terminal pods on all node VMs of the host (cached). */
  podsOnHost(hostId: string): readonly PodView[];
}

/** view -> inventory -> mapping rules joined with "," (the rules decide which host a node is on). */
const cache = new WeakMap<ClusterView, WeakMap<InventoryView, Map<string, HostOccupancy>>>();

export function hostOccupancyOf(view: ClusterView, inventory: InventoryView, rules: readonly NodeMappingRule[]): HostOccupancy {
  let byInventory = cache.get(view);
  if (!byInventory) cache.set(view, (byInventory = new WeakMap()));
  let byRules = byInventory.get(inventory);
  if (!byRules) byInventory.set(inventory, (byRules = new Map()));
  const rulesKey = rules.join(",");
  const cached = byRules.get(rulesKey);
  if (cached) return cached;
  const occupancy = buildHostOccupancy(view, vmIndexOf(inventory), rules);
  byRules.set(rulesKey, occupancy);
  return occupancy;
}

/** `hostOccupancyOf` without the memo: for the placement index, which is its own memo. */
export function buildHostOccupancy(
  view: ClusterView,
  index: VmIndex,
  rules: readonly NodeMappingRule[],
  /** Hosts' pod lists known already (the caller fills it before asking `podsOnHost`). */
  known = new Map<string, readonly PodView[]>(),
): HostOccupancy {
  const vmOfNode = new Map<string, VmView>();
  const hostOfNode = new Map<string, string>();
  const nodesOnHost = new Map<string, string[]>();
  for (const node of view.nodes.values()) {
    const vm = mapNodeToVm(node, index, rules);
    if (!vm) continue;
    vmOfNode.set(node.name, vm);
    hostOfNode.set(node.name, vm.hostId);
    let list = nodesOnHost.get(vm.hostId);
    if (!list) nodesOnHost.set(vm.hostId, (list = []));
    list.push(node.name);
  }
  return occupancyOf(view, vmOfNode, hostOfNode, nodesOnHost, known);
}

/**
 * `occupancy`'s node -> VM tables for `view`, whose nodes are the same as the tables were built
 * for (only pod lists differ); `known` holds the hosts' pod lists that are still the same, and
 * becomes the new tables' cache (the caller hands it over, as to `buildHostOccupancy`).
 */
export function reoccupy(occupancy: HostOccupancy, view: ClusterView, known: Map<string, readonly PodView[]>): HostOccupancy {
  return occupancyOf(view, occupancy.vmOfNode, occupancy.hostOfNode, occupancy.nodesOnHost, known);
}

/**
 * `occupancy`'s tables for `view` (the same nodes) and another poll of the same VMs in new
 * objects (`newVm`: each VM object the tables name with the new poll's): each node keeps its VM
 * and host. `known` as `buildHostOccupancy`'s.
 */
export function remapped(
  occupancy: HostOccupancy,
  newVm: ReadonlyMap<VmView, VmView>,
  view: ClusterView,
  known: Map<string, readonly PodView[]>,
): HostOccupancy {
  const vmOfNode = new Map<string, VmView>();
  for (const [name, vm] of occupancy.vmOfNode) vmOfNode.set(name, newVm.get(vm)!);
  return occupancyOf(view, vmOfNode, occupancy.hostOfNode, occupancy.nodesOnHost, known);
}

/**
 * `occupancy`'s tables for `view`, whose pod lists differ from those of the view `occupancy` was
 * built for only on the nodes of `changedHosts` (a binding, a deletion): the new tables take over
 * its pod-list cache less those hosts, in the size of the change, and `occupancy` starts afresh.
 */
export function advanced(occupancy: HostOccupancy, view: ClusterView, changedHosts: Iterable<string>): HostOccupancy {
  const cache = occupancy instanceof TabledOccupancy ? occupancy.handOverPods(changedHosts) : new Map<string, readonly PodView[]>();
  return occupancyOf(view, occupancy.vmOfNode, occupancy.hostOfNode, occupancy.nodesOnHost, cache);
}

function occupancyOf(
  view: ClusterView,
  vmOfNode: ReadonlyMap<string, VmView>,
  hostOfNode: ReadonlyMap<string, string>,
  nodesOnHost: ReadonlyMap<string, readonly string[]>,
  podCache: Map<string, readonly PodView[]>,
): HostOccupancy {
  return new TabledOccupancy(view, vmOfNode, hostOfNode, nodesOnHost, podCache);
}

class TabledOccupancy implements HostOccupancy {
  constructor(
    private readonly view: ClusterView,
    readonly vmOfNode: ReadonlyMap<string, VmView>,
    readonly hostOfNode: ReadonlyMap<string, string>,
    readonly nodesOnHost: ReadonlyMap<string, readonly string[]>,
    private podCache: Map<string, readonly PodView[]>,
  ) {}

  podsOnHost(hostId: string): readonly PodView[] {
    let pods = this.podCache.get(hostId);
    if (!pods) {
      pods = concatenated((this.nodesOnHost.get(hostId) ?? []).map((n) => this.view.podsByNode.get(n)));
      this.podCache.set(hostId, pods);
    }
    return pods;
  }

  /** The pod lists computed so far, less `changedHosts`'; this occupancy keeps none of them. */
  handOverPods(changedHosts: Iterable<string>): Map<string, readonly PodView[]> {
    const cache = this.podCache;
    this.podCache = new Map();
    for (const hostId of changedHosts) cache.delete(hostId);
    return cache;
  }
}

/** The lists one after the other (a loop: `flatMap` cost 4 % of a bound pair's CPU, recomputing a host after each binding). */
function concatenated(lists: ReadonlyArray<readonly PodView[] | undefined>): PodView[] {
  let length = 0;
  for (const list of lists) length += list?.length ?? 0;
  const out = new Array<PodView>(length);
  let i = 0;
  for (const list of lists) for (let j = 0; j < (list?.length ?? 0); j++) out[i++] = list![j]!;
  return out;
}

/**
 * The ESXi hosts under the cluster's nodes (the fleet the admission cap is about). Every
 * polled host while the node list is unknown, or when no node maps to a polled host.
 */
export function hostsBackingNodes(inventory: InventoryView, view: ClusterView | undefined, rules: readonly NodeMappingRule[]): HostView[] {
  const all = [...inventory.hosts.values()];
  if (!view || view.nodes.size === 0) return all;
  const used = hostOccupancyOf(view, inventory, rules).nodesOnHost;
  const backing = all.filter((h) => used.has(h.id));
  return backing.length > 0 ? backing : all;
}
