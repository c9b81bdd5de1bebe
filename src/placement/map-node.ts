import type { InventoryView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import type { NodeMappingRule } from "./policy.js";

/** Lookup tables over one inventory snapshot. UUID keys are lower case. */
export interface VmIndex {
  readonly byBiosUuid: ReadonlyMap<string, VmView>;
  readonly byName: ReadonlyMap<string, VmView>;
  /** UUIDs found in more than one vCenter: a node naming one maps to nothing. */
  readonly ambiguousUuids: ReadonlySet<string>;
}

const NO_UUIDS: ReadonlySet<string> = new Set();
/** Builds the VM lookup tables of one inventory snapshot (the placement index keeps them per snapshot). */
export function vmIndexOf(inventory: InventoryView): VmIndex {
  const byBiosUuid = new Map<string, VmView>();
  const byName = new Map<string, VmView>();
  for (const vm of inventory.vms.values()) {
    if (vm.biosUuid) byBiosUuid.set(vm.biosUuid.toLowerCase(), vm);
    // Two VMs with one name make name mapping ambiguous: prefer the powered-on one.
    const other = byName.get(vm.name);
    if (!other || (other.powerState !== "POWERED_ON" && vm.powerState === "POWERED_ON")) byName.set(vm.name, vm);
  }
  return { byBiosUuid, byName, ambiguousUuids: inventory.ambiguousBiosUuids ?? NO_UUIDS };
}

const PROVIDER_PREFIX = "vsphere://";

/**
 * Finds the VM behind a node by the rules in order: `spec.providerID` (`vsphere://<bios uuid>`),
 * `status.nodeInfo.systemUUID` (as is, then with the first three groups byte-swapped),
 * node name == VM name. All UUID comparisons ignore case. A node whose providerID or
 * systemUUID names a UUID found in two vCenters maps to none (no guess by name).
 */
export function mapNodeToVm(node: NodeIdentity, index: VmIndex, rules: readonly NodeMappingRule[]): VmView | undefined {
  if (index.ambiguousUuids.size > 0 && namesAmbiguousUuid(node, index.ambiguousUuids)) return undefined;
  for (const rule of rules) {
    const vm = applyRule(rule, node, index);
    if (vm) return vm;
  }
  return undefined;
}

function applyRule(rule: NodeMappingRule, node: NodeIdentity, index: VmIndex): VmView | undefined {
  switch (rule) {
    case "providerID": {
      const id = node.providerID?.trim().toLowerCase();
      if (!id?.startsWith(PROVIDER_PREFIX)) return undefined;
      return index.byBiosUuid.get(id.slice(PROVIDER_PREFIX.length).replace(/^\/+/, ""));
    }
    case "systemUUID": {
      const uuid = node.systemUUID?.trim().toLowerCase();
      if (!uuid) return undefined;
      const swapped = byteSwapUuid(uuid);
      return index.byBiosUuid.get(uuid) ?? (swapped ? index.byBiosUuid.get(swapped) : undefined);
    }
    case "name":
      return index.byName.get(node.name);
  }
}

function namesAmbiguousUuid(node: NodeIdentity, ambiguous: ReadonlySet<string>): boolean {
  const provider = node.providerID?.trim().toLowerCase();
  const fromProvider = provider?.startsWith(PROVIDER_PREFIX) ? provider.slice(PROVIDER_PREFIX.length).replace(/^\/+/, "") : undefined;
  const system = node.systemUUID?.trim().toLowerCase();
  const candidates = [fromProvider, system, system ? byteSwapUuid(system) : undefined];
  return candidates.some((u) => u !== undefined && ambiguous.has(u));
}

const UUID_RE = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Reverses the byte order of the first three groups (SMBIOS little-endian encoding):
 * `56492e42-22ad-3911-...` <-> `422e4956-ad22-1139-...`. Undefined when not a UUID.
 */
export function byteSwapUuid(uuid: string): string | undefined {
  const m = UUID_RE.exec(uuid.toLowerCase());
  if (!m) return undefined;
  const swap = (hex: string) => hex.match(/../g)!.reverse().join("");
  return `${swap(m[1]!)}-${swap(m[2]!)}-${swap(m[3]!)}-${m[4]}`;
}
