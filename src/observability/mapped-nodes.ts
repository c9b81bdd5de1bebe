import type { ClusterView } from "../model/cluster.js";
import type { InventoryView, VmView } from "../model/inventory.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import type { NodeMappingRule } from "../placement/policy.js";
import { vmCounterparts } from "../placement/vm-counterparts.js";

interface Mapped {
  readonly nodes: ClusterView["nodes"];
  readonly inventory: InventoryView;
  readonly vmOfNode: ReadonlyMap<string, VmView>;
}

/** The last mapping per rule list (the per-node families of one process share the config's). */
const last = new WeakMap<readonly NodeMappingRule[], Mapped>();

/**
 * The VM behind each mapped node of `view`, for the per-node metric families. Mapping 5000 nodes
 * took 15-50 ms, and every poll brings new VM objects (new samples) while it rarely changes what
 * mapping reads: with the nodes map of the last call and VMs that map as before (`vmCounterparts`;
 * a VM that moved to another host still maps to the same node), the last mapping is carried over
 * to the new VM objects instead. Pods binding (a new view, the same nodes map) change nothing here.
 */
export function mappedNodes(view: ClusterView, inventory: InventoryView, rules: readonly NodeMappingRule[]): ReadonlyMap<string, VmView> {
  const before = last.get(rules);
  if (before && before.nodes === view.nodes && before.inventory === inventory) return before.vmOfNode;
  const carried = before && before.nodes === view.nodes ? vmCounterparts(before.inventory, inventory, false) : undefined;
  let vmOfNode: ReadonlyMap<string, VmView>;
  if (carried) {
    const moved = new Map<string, VmView>();
    for (const [node, vm] of before!.vmOfNode) moved.set(node, carried.get(vm)!);
    vmOfNode = moved;
  } else {
    vmOfNode = hostOccupancyOf(view, inventory, rules).vmOfNode;
  }
  last.set(rules, { nodes: view.nodes, inventory, vmOfNode });
  return vmOfNode;
}
