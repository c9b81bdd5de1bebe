import type { InventoryView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import { mapNodeToVm, vmIndexOf, type VmIndex } from "./map-node.js";
import type { NodeMappingRule } from "./policy.js";

/** How one node maps to its VM and host, for `GET /debug/nodes`. */
export type NodeMapping =
  | {
      readonly node: string;
      readonly mapped: true;
      readonly rule: NodeMappingRule;
      readonly vm: { id: string; name: string };
      readonly host: { id: string; name: string } | null;
      readonly why?: string;
    }
  | {
      readonly node: string;
      readonly mapped: false;
      readonly why: string;
      readonly tried: Readonly<Partial<Record<NodeMappingRule, string>>>;
    };

/**
 * Which of the configured rules finds the node's VM (the first that does, as `mapNodeToVm`
 * decides), with its host; or, when none does, what each rule looked for. Pure.
 */
export function explainNodeMapping(
  node: NodeIdentity,
  inventory: InventoryView,
  rules: readonly NodeMappingRule[],
  /** The inventory's VM tables, built once by a caller that explains many nodes. */
  index: VmIndex = vmIndexOf(inventory),
): NodeMapping {
  for (const rule of rules) {
    const vm = mapNodeToVm(node, index, [rule]);
    if (!vm) continue;
    const host = inventory.hosts.get(vm.hostId);
    return {
      node: node.name,
      mapped: true,
      rule,
      vm: { id: vm.id, name: vm.name },
      host: host ? { id: host.id, name: host.name } : null,
      ...(host ? {} : { why: `VM ${vm.name} (${vm.id}) is on host ${vm.hostId}, which hvx does not poll (vcenter.clusters?): no opinion` }),
    };
  }
  const tried: Partial<Record<NodeMappingRule, string>> = {};
  for (const rule of rules) tried[rule] = missWords(rule, node);
  const why =
    inventory.vms.size === 0
      ? "no VM inventory yet (first vCenter poll not done, or it failed: see /debug/hosts)"
      : `no VM matches by ${rules.join(", ")}`;
  return { node: node.name, mapped: false, why, tried };
}

function missWords(rule: NodeMappingRule, node: NodeIdentity): string {
  switch (rule) {
    case "providerID":
      if (!node.providerID) return "node has no spec.providerID";
      if (!node.providerID.trim().toLowerCase().startsWith("vsphere://"))
        return `spec.providerID ${node.providerID} is not vsphere://<bios uuid>`;
      return `no VM has BIOS UUID ${node.providerID.trim().slice("vsphere://".length).replace(/^\/+/, "")}`;
    case "systemUUID":
      return node.systemUUID
        ? `no VM has BIOS UUID ${node.systemUUID} (as is or byte-swapped)`
        : "node has no status.nodeInfo.systemUUID (or it was not sent)";
    case "name":
      return `no VM is named ${node.name}`;
  }
}
