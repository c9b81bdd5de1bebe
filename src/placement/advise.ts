import type { ClusterView } from "../model/cluster.js";
import type { HostView, InventoryView } from "../model/inventory.js";
import type { Heat } from "./assess-host.js";
import { hostOccupancyOf } from "./host-occupancy.js";
import { PodListSummaries, type PodListSummary } from "./pod-list-summary.js";
import type { LimitsPolicy, NodeMappingRule, ThresholdPolicy } from "./policy.js";

/**
 * Advice: findings a platform or vSphere team may act on, ordered by risk (highest first).
 * hvx changes nothing itself. Each finding names its subject, the evidence and the fix.
 * Unknown data (no reservation read yet, no heat) yields no finding: no opinion.
 */
export type AdviceRule =
  | "memory-reservation"
  | "cpu-ready-on-hot-host"
  | "esxi-overcommit"
  | "limit-overcommit-on-warm-host"
  | "besteffort-on-warm-host"
  | "oversell-on-hot-hosts";

export interface Finding {
  readonly rule: AdviceRule;
  /** 0..100, higher first. */
  readonly risk: number;
  /** `host esx-07`, `node w1`, `namespace shop`. */
  readonly subject: string;
  readonly evidence: string;
  readonly fix: string;
}

export interface AdvicePolicy {
  readonly nodeMapping: readonly NodeMappingRule[];
  readonly limits: LimitsPolicy;
  readonly advice: { readonly maxVcpuPerPcpu: number; readonly maxVramPerPram: number };
  readonly thresholds: Pick<ThresholdPolicy, "cpuReadyPercent" | "maxMetricAgeSeconds">;
}

/** A VM's reservations as vCenter reported them (`summary.config`). */
export interface VmReservation {
  readonly memoryReservationMiB: number;
  readonly cpuReservationMhz: number;
}

export interface AdviceInput {
  readonly cluster: ClusterView;
  readonly inventory: InventoryView;
  /** Current heat per host id; a host absent here is unknown. */
  readonly heat: ReadonlyMap<string, Heat>;
  /** Reservations per VM id; a VM absent here was not read yet (no opinion). */
  readonly reservations: ReadonlyMap<string, VmReservation>;
  /** Hosts that ballooned or swapped in the last 24 h. */
  readonly memoryPainHosts: ReadonlySet<string>;
  /** Hosts that were hot in the last hour. */
  readonly recentlyHotHosts: ReadonlySet<string>;
  /** Namespaces whose oversell ratio is above 1.0 for CPU or memory. */
  readonly oversoldNamespaces: ReadonlySet<string>;
}

/** Share of a namespace's pods' hosts that must have been hot in the last hour. */
export const HOT_HOST_SHARE = 0.25;
const MAX_PODS_NAMED = 5;

/** Pure. Pass the same `summaries` for every snapshot: only the pod lists that changed are read again. */
export function advise(input: AdviceInput, policy: AdvicePolicy, summaries = new PodListSummaries()): Finding[] {
  return byRisk([...adviseHosts(input, policy, summaries), ...adviseNamespaces(input, policy, summaries)]);
}

/** Riskiest first; ties by rule, then subject. */
export function byRisk(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => b.risk - a.risk || a.rule.localeCompare(b.rule) || a.subject.localeCompare(b.subject));
}

/** The rules about hosts and their nodes (every rule but `oversell-on-hot-hosts`), unordered. */
export function adviseHosts(input: AdviceInput, policy: AdvicePolicy, summaries = new PodListSummaries()): Finding[] {
  const occupancy = hostOccupancyOf(input.cluster, input.inventory, policy.nodeMapping);
  const findings: Finding[] = [];
  const warmOrHot = (hostId: string) => {
    const h = input.heat.get(hostId);
    return h === "warm" || h === "hot";
  };
  for (const host of input.inventory.hosts.values()) {
    const nodes = occupancy.nodesOnHost.get(host.id) ?? [];
    if (input.memoryPainHosts.has(host.id)) {
      for (const node of nodes) {
        const vm = occupancy.vmOfNode.get(node);
        const r = vm ? input.reservations.get(vm.id) : undefined;
        if (!vm || !r || r.memoryReservationMiB > 0) continue;
        findings.push({
          rule: "memory-reservation",
          risk: 90,
          subject: `node ${node}`,
          evidence: `VM ${vm.name} (${vm.id}) has no memory reservation (0 of ${vm.memoryMiB} MiB) on ESXi host ${host.name} (${host.id}), which ballooned or swapped in the last 24 h`,
          fix:
            `reserve the VM's memory (vSphere: Edit Settings > Memory > Reservation = ${vm.memoryMiB} MiB, or "Reserve all guest memory") so ESXi never balloons or swaps the node; kubelet's evictions then see the real pressure. ` +
            "Trade-offs: reserved memory stays taken even when unused (fewer VMs fit: less consolidation), and vSphere HA admission control counts it, " +
            "which can refuse power-ons or failover capacity; reserve the node VMs of hosts that balloon, not every VM",
        });
      }
    }
    findings.push(...esxiOvercommit(host, policy));
    findings.push(...cpuReadyOnHotHost(host, input, nodes, policy));
    if (!warmOrHot(host.id)) continue;
    const heat = input.heat.get(host.id)!;
    for (const node of nodes) {
      const view = input.cluster.nodes.get(node);
      const pods = summaries.of(input.cluster.podsByNode.get(node) ?? []);
      if (view) findings.push(...limitOvercommit(node, view.allocatable, pods, host, heat, policy.limits));
      const bestEffort = pods.bestEffort;
      if (bestEffort.length === 0) continue;
      const named = bestEffort
        .slice(0, MAX_PODS_NAMED)
        .map((p) => `${p.namespace}/${p.name}`)
        .join(", ");
      findings.push({
        rule: "besteffort-on-warm-host",
        risk: heat === "hot" ? 60 : 45,
        subject: `node ${node}`,
        evidence: `${bestEffort.length} BestEffort pod(s) (${named}${bestEffort.length > MAX_PODS_NAMED ? ", ..." : ""}) on a node of ${heat} ESXi host ${host.name} (${host.id})`,
        fix: "give these pods CPU and memory requests: BestEffort pods are evicted first and are invisible to the burst guard",
      });
    }
  }
  return findings;
}

/** `oversell-on-hot-hosts`, unordered. */
export function adviseNamespaces(input: AdviceInput, policy: AdvicePolicy, summaries = new PodListSummaries()): Finding[] {
  return oversellOnHotHosts(input, hostOccupancyOf(input.cluster, input.inventory, policy.nodeMapping).hostOfNode, summaries);
}

/**
 * A hot host whose CPU ready (per vCPU) is at or over `thresholds.cpuReadyPercent`: vCPUs queue
 * for physical cores. Only on a sample no older than `maxMetricAgeSeconds` before the poll that
 * read the host (a stale value is no opinion).
 */
function cpuReadyOnHotHost(host: HostView, input: AdviceInput, nodes: readonly string[], policy: AdvicePolicy): Finding[] {
  const ready = host.metrics?.cpuReadyPercent;
  const { cpuReadyPercent, maxMetricAgeSeconds } = policy.thresholds;
  if (input.heat.get(host.id) !== "hot" || ready === undefined || ready < cpuReadyPercent) return [];
  if (host.polledAtMs - host.metrics!.sampledAtMs > maxMetricAgeSeconds * 1000) return [];
  const onIt =
    nodes.length > 0 ? `, under nodes ${nodes.slice(0, MAX_PODS_NAMED).join(", ")}${nodes.length > MAX_PODS_NAMED ? ", ..." : ""}` : "";
  return [
    {
      rule: "cpu-ready-on-hot-host",
      // 80 at the threshold, +1 per point above it, at most 95
      risk: Math.min(95, 80 + Math.floor(ready - cpuReadyPercent)),
      subject: `host ${host.name}`,
      evidence: `CPU ready ${ready.toFixed(1)}% >= ${cpuReadyPercent}% per vCPU on ESXi host ${host.name} (${host.id}): its VMs' vCPUs wait for physical cores (vCPU:pCPU ${host.vcpuPerPcpu.toFixed(2)} on ${host.cpuCores} cores${onIt})`,
      fix:
        "give the host fewer runnable vCPUs: move VMs off it (DRS, or anti-affinity rules between the busiest VMs), give oversized VMs fewer vCPUs " +
        "(a wide VM waits for more cores at once), remove CPU limits on the node VMs; meanwhile hvx keeps new pods off its nodes while it is hot",
    },
  ];
}

function esxiOvercommit(host: HostView, policy: AdvicePolicy): Finding[] {
  const out: Finding[] = [];
  const { maxVcpuPerPcpu, maxVramPerPram } = policy.advice;
  if (host.cpuCores > 0 && host.vcpuPerPcpu > maxVcpuPerPcpu) {
    out.push({
      rule: "esxi-overcommit",
      // 50 at the limit, +10 per whole ratio above it, at most 80
      risk: Math.min(80, 50 + Math.round((host.vcpuPerPcpu - maxVcpuPerPcpu) * 10)),
      subject: `host ${host.name}`,
      evidence: `vCPU:pCPU ${host.vcpuPerPcpu.toFixed(2)} > ${maxVcpuPerPcpu} on ESXi host ${host.name} (${host.id}, ${host.cpuCores} cores)`,
      fix: "move or shrink VMs (DRS rules, fewer vCPUs per node VM) until vCPU:pCPU is under advice.maxVcpuPerPcpu",
    });
  }
  if (host.memoryMiB > 0 && host.vramPerPram > maxVramPerPram) {
    out.push({
      rule: "esxi-overcommit",
      risk: Math.min(85, 55 + Math.round((host.vramPerPram - maxVramPerPram) * 20)),
      subject: `host ${host.name}`,
      evidence: `vRAM:pRAM ${host.vramPerPram.toFixed(2)} > ${maxVramPerPram} on ESXi host ${host.name} (${host.id}, ${host.memoryMiB} MiB)`,
      fix: "move VMs off the host or reserve the node VMs' memory: overcommitted host memory is reclaimed by ballooning and swapping under Kubernetes' feet",
    });
  }
  return out;
}

function limitOvercommit(
  node: string,
  allocatable: { cpuMilli: number; memoryBytes: number },
  totals: PodListSummary,
  host: HostView,
  heat: Heat,
  limits: LimitsPolicy,
): Finding[] {
  const out: Finding[] = [];
  const check = (resource: "cpu" | "memory", sum: number, alloc: number, max: number, unit: (v: number) => string) => {
    if (alloc <= 0) return;
    const ratio = sum / alloc;
    if (ratio <= max) return;
    out.push({
      rule: "limit-overcommit-on-warm-host",
      risk: heat === "hot" ? 70 : 50,
      subject: `node ${node}`,
      evidence: `${resource} limits ${unit(sum)} / allocatable ${unit(alloc)} = ${ratio.toFixed(2)} > ${max} (limit overcommit) while ESXi host ${host.name} (${host.id}) is ${heat}`,
      fix: `lower the ${resource} limits of the pods on this node or move some away; the host cannot absorb their bursts`,
    });
  };
  check("cpu", totals.cpuLimitsMilli, allocatable.cpuMilli, limits.maxCpuOvercommit, (m) => (m / 1000).toFixed(1));
  check("memory", totals.memoryLimitsBytes, allocatable.memoryBytes, limits.maxMemoryOvercommit, (b) => `${(b / 2 ** 30).toFixed(1)}Gi`);
  return out;
}

function oversellOnHotHosts(input: AdviceInput, hostOfNode: ReadonlyMap<string, string>, summaries: PodListSummaries): Finding[] {
  const hostsOf = new Map<string, Set<string>>();
  for (const [node, pods] of input.cluster.podsByNode) {
    const host = hostOfNode.get(node);
    if (host === undefined) continue;
    for (const namespace of summaries.of(pods).byNamespace.keys()) {
      if (!input.oversoldNamespaces.has(namespace)) continue;
      let set = hostsOf.get(namespace);
      if (!set) hostsOf.set(namespace, (set = new Set()));
      set.add(host);
    }
  }
  const out: Finding[] = [];
  for (const [namespace, hosts] of hostsOf) {
    const hot = [...hosts].filter((h) => input.recentlyHotHosts.has(h));
    if (hot.length / hosts.size <= HOT_HOST_SHARE) continue;
    const names = hot.map((h) => input.inventory.hosts.get(h)?.name ?? h).sort();
    out.push({
      rule: "oversell-on-hot-hosts",
      risk: 75,
      subject: `namespace ${namespace}`,
      evidence: `oversell is on and ${hot.length} of the ${hosts.size} ESXi hosts under its pods were hot in the last hour (${names.join(", ")})`,
      fix: "lower the namespace's oversell ratio (label hvx.io/oversell-cpu / hvx.io/oversell-memory, or admission.namespaces) until its hosts cool down",
    });
  }
  return out;
}
