import type { ClusterView, ResourceAmounts } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { hostOccupancyOf } from "./host-occupancy.js";
import { PodListSummaries } from "./pod-list-summary.js";
import type { LimitsPolicy, NodeMappingRule } from "./policy.js";

/**
 * The oversell ledger: what the two overcommit bets add up to.
 * - per namespace: the pods the webhook scaled (`hvx.io/original-requests`), their requests
 *   as written and as scaled, and the effective ratio original / scaled;
 * - per ESXi host: the Kubernetes layer (sum of limits / sum of allocatable of its node VMs)
 *   times the ESXi layer (vCPU:pCPU, vRAM:pRAM) = the joint overcommit, beside the caps.
 * A ratio hvx cannot compute (no allocatable, no cores) is null: no opinion, never "fine".
 */
export interface LedgerPolicy {
  readonly nodeMapping: readonly NodeMappingRule[];
  readonly limits: LimitsPolicy;
  /** The stacked caps of the oversell webhook (`admission.maxStacked*`). */
  readonly admission: { readonly maxStackedCpuOvercommit: number; readonly maxStackedMemoryOvercommit: number };
}

export interface NamespaceLedger {
  readonly namespace: string;
  readonly pods: number;
  readonly podsScaled: number;
  /** Requests of the scaled pods as written (CPU millicores, memory bytes). */
  readonly original: ResourceAmounts;
  /** The same pods' requests as they run. */
  readonly scaled: ResourceAmounts;
  /** original / scaled; null without scaled pods (or a zero scaled sum). */
  readonly cpuRatio: number | null;
  readonly memoryRatio: number | null;
}

export interface LayerRatios {
  readonly cpu: number | null;
  readonly memory: number | null;
}

export interface HostLedger {
  readonly id: string;
  readonly name: string;
  readonly nodes: readonly string[];
  readonly pods: number;
  /** Sum of limits / sum of allocatable over the host's node VMs. */
  readonly kubernetes: LayerRatios;
  /** vCPU:pCPU and vRAM:pRAM of the host's powered-on VMs. */
  readonly esxi: LayerRatios;
  /** kubernetes x esxi. */
  readonly joint: LayerRatios;
  /** CPU limits of the pods on the host / its physical cores: what the extender's stacked rule checks. */
  readonly cpuLimitsPerCore: number | null;
  readonly caps: {
    readonly kubernetesCpu: number;
    readonly kubernetesMemory: number;
    readonly jointCpu: number;
    readonly jointMemory: number;
  };
  /** Resources whose joint overcommit is above its cap. */
  readonly aboveCap: readonly ("cpu" | "memory")[];
}

export interface OversellLedger {
  readonly namespaces: readonly NamespaceLedger[];
  readonly hosts: readonly HostLedger[];
  readonly totals: {
    readonly namespacesScaled: number;
    readonly podsScaled: number;
    readonly original: ResourceAmounts;
    readonly scaled: ResourceAmounts;
    readonly hostsAboveCap: number;
  };
}

/**
 * Builds the ledger from one pair of snapshots. Pure; linear in nodes + pods, and in nodes
 * alone for the pod lists `summaries` already knows (pass the same memo for every snapshot).
 */
export function buildOversellLedger(
  view: ClusterView,
  inventory: InventoryView,
  policy: LedgerPolicy,
  summaries = new PodListSummaries(),
): OversellLedger {
  const namespaces = namespaceLedgers(view, summaries);
  const hosts = hostLedgers(view, inventory, policy, summaries);
  const scaled = namespaces.filter((n) => n.podsScaled > 0);
  return {
    namespaces,
    hosts,
    totals: {
      namespacesScaled: scaled.length,
      podsScaled: sum(scaled, (n) => n.podsScaled),
      original: { cpuMilli: sum(scaled, (n) => n.original.cpuMilli), memoryBytes: sum(scaled, (n) => n.original.memoryBytes) },
      scaled: { cpuMilli: sum(scaled, (n) => n.scaled.cpuMilli), memoryBytes: sum(scaled, (n) => n.scaled.memoryBytes) },
      hostsAboveCap: hosts.filter((h) => h.aboveCap.length > 0).length,
    },
  };
}

function namespaceLedgers(view: ClusterView, summaries: PodListSummaries): readonly NamespaceLedger[] {
  const rows = summaries.byNamespace(view.podsByNode);
  return [...rows.entries()]
    .map(([namespace, r]) => ({
      namespace,
      pods: r.pods,
      podsScaled: r.podsScaled,
      original: { cpuMilli: r.originalCpuMilli, memoryBytes: r.originalMemoryBytes },
      scaled: { cpuMilli: r.scaledCpuMilli, memoryBytes: r.scaledMemoryBytes },
      cpuRatio: ratio(r.originalCpuMilli, r.scaledCpuMilli),
      memoryRatio: ratio(r.originalMemoryBytes, r.scaledMemoryBytes),
    }))
    .sort(
      (a, b) =>
        b.original.cpuMilli - b.scaled.cpuMilli - (a.original.cpuMilli - a.scaled.cpuMilli) || a.namespace.localeCompare(b.namespace),
    );
}

function hostLedgers(view: ClusterView, inventory: InventoryView, policy: LedgerPolicy, summaries: PodListSummaries): HostLedger[] {
  const occupancy = hostOccupancyOf(view, inventory, policy.nodeMapping);
  const out: HostLedger[] = [];
  for (const host of inventory.hosts.values()) {
    const nodes = occupancy.nodesOnHost.get(host.id) ?? [];
    let pods = 0;
    let cpuLimitsMilli = 0;
    let memoryLimitsBytes = 0;
    let allocCpu = 0;
    let allocMem = 0;
    for (const n of nodes) {
      const node = view.nodes.get(n);
      allocCpu += node?.allocatable.cpuMilli ?? 0;
      allocMem += node?.allocatable.memoryBytes ?? 0;
      const list = view.podsByNode.get(n);
      if (!list) continue;
      const s = summaries.of(list);
      pods += s.pods;
      cpuLimitsMilli += s.cpuLimitsMilli;
      memoryLimitsBytes += s.memoryLimitsBytes;
    }
    const kubernetes = { cpu: ratio(cpuLimitsMilli, allocCpu), memory: ratio(memoryLimitsBytes, allocMem) };
    const esxi = {
      cpu: host.cpuCores > 0 && host.vcpuPerPcpu > 0 ? host.vcpuPerPcpu : null,
      memory: host.memoryMiB > 0 && host.vramPerPram > 0 ? host.vramPerPram : null,
    };
    const joint = { cpu: product(kubernetes.cpu, esxi.cpu), memory: product(kubernetes.memory, esxi.memory) };
    const caps = {
      kubernetesCpu: policy.limits.maxCpuOvercommit,
      kubernetesMemory: policy.limits.maxMemoryOvercommit,
      jointCpu: policy.limits.maxStackedCpuOvercommit,
      jointMemory: policy.admission.maxStackedMemoryOvercommit,
    };
    const aboveCap: ("cpu" | "memory")[] = [];
    if (joint.cpu !== null && joint.cpu > caps.jointCpu) aboveCap.push("cpu");
    if (joint.memory !== null && joint.memory > caps.jointMemory) aboveCap.push("memory");
    out.push({
      id: host.id,
      name: host.name,
      nodes,
      pods,
      kubernetes,
      esxi,
      joint,
      // what checkStackedCpu computes for an incoming pod without limits
      cpuLimitsPerCore: host.cpuCores > 0 ? cpuLimitsMilli / 1000 / host.cpuCores : null,
      caps,
      aboveCap,
    });
  }
  return out.sort((a, b) => (b.joint.cpu ?? -1) - (a.joint.cpu ?? -1) || a.name.localeCompare(b.name));
}

function ratio(num: number, den: number): number | null {
  return den > 0 ? num / den : null;
}

function product(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a * b;
}

function sum<T>(xs: readonly T[], f: (x: T) => number): number {
  return xs.reduce((acc, x) => acc + f(x), 0);
}
