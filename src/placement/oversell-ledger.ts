import type { ClusterView, PodView, ResourceAmounts } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { hostOccupancyOf } from "./host-occupancy.js";
import { podTotals } from "./pod-totals.js";
import type { LimitsPolicy, NodeMappingRule } from "./policy.js";
import { checkStackedCpu } from "./stacked-overcommit.js";

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

/** An incoming pod that adds nothing: the stacked check then measures the host as it is. */
const NO_POD: PodView = { namespace: "", name: "", uid: "", requests: zero(), limits: zero(), expectedDemand: zero(), terminal: false };

/** Builds the ledger from one pair of snapshots. Pure; linear in nodes + pods. */
export function buildOversellLedger(view: ClusterView, inventory: InventoryView, policy: LedgerPolicy): OversellLedger {
  const namespaces = namespaceLedgers(view);
  const hosts = hostLedgers(view, inventory, policy);
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

const namespaceCache = new WeakMap<ClusterView, readonly NamespaceLedger[]>();

/** Per-namespace rows depend on the Kubernetes snapshot alone: memoised per view (a poll does not redo them). */
function namespaceLedgers(view: ClusterView): readonly NamespaceLedger[] {
  const known = namespaceCache.get(view);
  if (known) return known;
  const rows = new Map<string, { pods: number; podsScaled: number; oc: number; om: number; sc: number; sm: number }>();
  for (const pods of view.podsByNode.values()) {
    for (const p of pods) {
      let r = rows.get(p.namespace);
      if (!r) rows.set(p.namespace, (r = { pods: 0, podsScaled: 0, oc: 0, om: 0, sc: 0, sm: 0 }));
      r.pods += 1;
      if (!p.originalRequests) continue;
      r.podsScaled += 1;
      r.oc += p.originalRequests.cpuMilli;
      r.om += p.originalRequests.memoryBytes;
      r.sc += p.requests.cpuMilli;
      r.sm += p.requests.memoryBytes;
    }
  }
  const out = [...rows.entries()]
    .map(([namespace, r]) => ({
      namespace,
      pods: r.pods,
      podsScaled: r.podsScaled,
      original: { cpuMilli: r.oc, memoryBytes: r.om },
      scaled: { cpuMilli: r.sc, memoryBytes: r.sm },
      cpuRatio: ratio(r.oc, r.sc),
      memoryRatio: ratio(r.om, r.sm),
    }))
    .sort((a, b) => b.original.cpuMilli - b.scaled.cpuMilli - (a.original.cpuMilli - a.scaled.cpuMilli) || a.namespace.localeCompare(b.namespace));
  namespaceCache.set(view, out);
  return out;
}

function hostLedgers(view: ClusterView, inventory: InventoryView, policy: LedgerPolicy): HostLedger[] {
  const occupancy = hostOccupancyOf(view, inventory, policy.nodeMapping);
  const out: HostLedger[] = [];
  for (const host of inventory.hosts.values()) {
    const nodes = occupancy.nodesOnHost.get(host.id) ?? [];
    const pods = occupancy.podsOnHost(host.id);
    const totals = podTotals(pods);
    let allocCpu = 0;
    let allocMem = 0;
    for (const n of nodes) {
      const node = view.nodes.get(n);
      allocCpu += node?.allocatable.cpuMilli ?? 0;
      allocMem += node?.allocatable.memoryBytes ?? 0;
    }
    const kubernetes = { cpu: ratio(totals.cpuLimitsMilli, allocCpu), memory: ratio(totals.memoryLimitsBytes, allocMem) };
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
      pods: pods.length,
      kubernetes,
      esxi,
      joint,
      cpuLimitsPerCore: host.cpuCores > 0 ? checkStackedCpu(host, pods, NO_POD, policy.limits).ratio : null,
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

function zero(): ResourceAmounts {
  return { cpuMilli: 0, memoryBytes: 0 };
}
