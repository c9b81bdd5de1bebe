import type { InventoryView, VmView } from "../model/inventory.js";

/**
 * When `b`'s VMs are `a`'s, in the same order, with the same ids, names, BIOS UUIDs and power
 * states and the same ambiguous BIOS UUIDs (everything node mapping reads, map-node.ts, so every
 * node maps to the same VM in both), and with `sameHosts` on the same hosts too: each of `a`'s VM
 * objects with `b`'s. Otherwise undefined.
 */
export function vmCounterparts(a: InventoryView, b: InventoryView, sameHosts: boolean): Map<VmView, VmView> | undefined {
  if (a.vms.size !== b.vms.size || !sameSet(a.ambiguousBiosUuids, b.ambiguousBiosUuids)) return undefined;
  const pairs = new Map<VmView, VmView>();
  const before = a.vms.values();
  for (const vm of b.vms.values()) {
    const was = before.next().value;
    if (!was || was.id !== vm.id || was.name !== vm.name || was.biosUuid !== vm.biosUuid || was.powerState !== vm.powerState)
      return undefined;
    if (sameHosts && was.hostId !== vm.hostId) return undefined;
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
