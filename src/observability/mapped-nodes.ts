import type { ClusterView } from "../model/cluster.js";
import type { InventoryView, VmView } from "../model/inventory.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import type { NodeMappingRule } from "../placement/policy.js";

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
 * mapping reads: with the nodes map of the last call and VMs that map as before (`sameMappingInputs`;
 * a VM that moved to another host still maps to the same node), the last mapping is carried over
 * to the new VM objects instead. Pods binding (a new view, the same nodes map) change nothing here.
 */
export function mappedNodes(view: ClusterView, inventory: InventoryView, rules: readonly NodeMappingRule[]): ReadonlyMap<string, VmView> {
  const before = last.get(rules);
  if (before && before.nodes === view.nodes && before.inventory === inventory) return before.vmOfNode;
  const carried = before && before.nodes === view.nodes ? sameMappingInputs(before.inventory, inventory) : undefined;
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

/**
 * When `b`'s VMs are `a`'s in the same order with the same ids, names, BIOS UUIDs and power states,
 * and the same ambiguous UUIDs (everything map-node.ts reads of an inventory: every node maps to
 * the same VM in both): each of `a`'s VM objects with `b`'s. Otherwise undefined.
 */
function sameMappingInputs(a: InventoryView, b: InventoryView): Map<VmView, VmView> | undefined {
  if (a.vms.size !== b.vms.size || !sameSet(a.ambiguousBiosUuids, b.ambiguousBiosUuids)) return undefined;
  const pairs = new Map<VmView, VmView>();
  const before = a.vms.values();
  for (const vm of b.vms.values()) {
    const was = before.next().value;
    if (!was || was.id !== vm.id || was.name !== vm.name || was.biosUuid !== vm.biosUuid || was.powerState !== vm.powerState)
      return undefined;
    pairs.set(was, vm);
  }
  return pairs;
}

function sameSet(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === b) return true;
  if ((a?.size ?? 0) !== (b?.size ?? 0)) return false;
  for (const x of a ?? []) if (!b!.has(x)) return false;
  return true;
}
