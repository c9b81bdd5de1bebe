import type { ClusterView, PodEvictionFacts, PodView } from "../../src/model/cluster.js";
import type { HostMetrics, InventoryView, VmMetrics } from "../../src/model/inventory.js";
import type { RebalancePolicy } from "../../src/rebalance/choose-evictions.js";
import type { HotSpell } from "../../src/rebalance/hot-spells.js";
import type { VmSpell } from "../../src/rebalance/vm-spells.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";

/**
 * The defaults (10 min hot, 2 per cycle, 20 per hour, no local storage, brake at 25 %; restart 30 s,
 * spells of 60 s, node VM ready 5 %) but the budget per 100 pod-hours, which at its default of 2
 * would hold every fleet of fewer than 50 pods: 10 000 keeps it out of the way of the cases about
 * the other guards (choose-evictions-budget.test.ts sets it).
 */
export const REBALANCE: RebalancePolicy = {
  hotForMinutes: 10,
  maxEvictionsPerCycle: 2,
  maxEvictionsPerHour: 20,
  maxEvictionsPer100PodHours: 10_000,
  evictLocalStorage: false,
  hotHostBrakePercent: 25,
  restartSeconds: 30,
  minSpellSeconds: 60,
  vmReadyPercent: 5,
};

export const HOT: Partial<HostMetrics> = { cpuReadyPercent: 20 };
export const WARM: Partial<HostMetrics> = { cpuReadyPercent: 7 };

/**
 * `hosts` ESXi hosts `host-0..`, each with one 8-vCPU node VM `worker-<i>` (allocatable 7.8 CPU /
 * 30 GiB, mapped by providerID); `metrics[i]` overrides host i's sample (cool otherwise), `vmMetrics[i]` VM i's.
 */
export function fleet(
  hosts: number,
  metrics: Record<number, Partial<HostMetrics>> = {},
  pods: readonly PodView[] = [],
  vmMetrics: Record<number, Partial<VmMetrics>> = {},
): { inventory: InventoryView; cluster: ClusterView } {
  const hs = Array.from({ length: hosts }, (_, i) => hostView({ id: `host-${i}`, name: `esx-${i}`, metrics: metrics[i] ?? {} }));
  const uuid = (i: number) => `42000000-0000-0000-0000-${String(i).padStart(12, "0")}`;
  const vms = hs.map((h, i) =>
    vmView({ id: `vm-${i}`, name: `worker-${i}`, hostId: h.id, biosUuid: uuid(i), metrics: vmMetrics[i] ?? {} }),
  );
  const nodes = hs.map((_, i) => nodeView({ name: `worker-${i}`, providerID: `vsphere://${uuid(i)}` }));
  return { inventory: inventoryOf(hs, vms), cluster: clusterViewOf(nodes, pods) };
}

const REPLICA_SET: PodEvictionFacts = { controllerKind: "ReplicaSet", ownerKinds: ["ReplicaSet"], localStorage: false };

/** An evictable ReplicaSet pod (500m / 1 GiB, limit 1 CPU) on `node`, in its own replica group unless `ownerKey` says otherwise. */
export function pod(name: string, node: string, over: Partial<PodView> = {}, facts: Partial<PodEvictionFacts> = {}): PodView {
  return podView({
    name,
    uid: `uid-${name}`,
    nodeName: node,
    ownerKey: `ReplicaSet/payments/${name}`,
    eviction: { ...REPLICA_SET, ...facts },
    ...over,
  });
}

/** Host `host-<i>` hot since `minutes` ago on cpu ready, last seen hot on an earlier sample. */
export function spell(i: number, minutes: number, over: Partial<HotSpell> = {}): HotSpell {
  return {
    hostId: `host-${i}`,
    hostName: `esx-${i}`,
    sinceMs: NOW_MS - minutes * 60_000,
    metric: "cpu ready",
    value: 20,
    threshold: 10,
    clearPolls: 0,
    lastSampleMs: NOW_MS - 34_000,
    ...over,
  };
}

export function spells(...list: HotSpell[]): Map<string, HotSpell> {
  return new Map(list.map((s) => [s.hostId, s]));
}

/** Node VM `vm-<i>` (worker-<i>, on host-<i>) at ready 8 % >= 5 % since `minutes` ago. */
export function vmSpell(i: number, minutes: number, over: Partial<VmSpell> = {}): VmSpell {
  return { ...spell(i, minutes), vmId: `vm-${i}`, vmName: `worker-${i}`, value: 8, threshold: 5, ...over };
}

export function vmSpells(...list: VmSpell[]): Map<string, VmSpell> {
  return new Map(list.map((s) => [s.vmId, s]));
}

export { amounts, NOW_MS };
