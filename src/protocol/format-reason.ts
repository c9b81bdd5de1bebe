import type { HostPool } from "../placement/policy.js";
import type { HostRef, Reason } from "../placement/reason.js";

/**
 * One line per reason, e.g. `ESXi host esx-07 (host-21): cpu ready 12.4% >= 10% (sampled 14s ago)`:
 * the detailed text of explain, /debug and the logs. What kube-scheduler gets is the short,
 * host-free text of `formatWireReasons` (format-wire-reason.ts).
 */
export function formatReason(reason: Reason): string {
  switch (reason.code) {
    case "host_metric": {
      if (reason.predicted) {
        const p = reason.predicted;
        const at = `${String(Math.floor(p.minuteOfDay / 60)).padStart(2, "0")}:${String(p.minuteOfDay % 60).padStart(2, "0")}`;
        return `${hostPrefix(reason.host)} predicted ${reason.metric} ${value(reason.value, reason.unit)} ${reason.op} ${value(reason.threshold, reason.unit)} around ${at} UTC (p${p.percentile} of ${p.days} day${p.days === 1 ? "" : "s"})`;
      }
      const age = reason.pendingPods ? `(sampled ${reason.ageS}s ago, incl. ${reason.pendingPods} pods bound since)` : sampled(reason.ageS);
      return `${hostPrefix(reason.host)} ${reason.metric} ${value(reason.value, reason.unit)} ${reason.op} ${value(reason.threshold, reason.unit)} ${age}`;
    }
    case "vm_metric":
      return `${hostPrefix(reason.host)} VM ${reason.vm.name} (${reason.vm.id}) ${reason.metric} ${value(reason.value, reason.unit)} ${reason.op} ${value(reason.threshold, reason.unit)} ${sampled(reason.ageS)}`;
    case "host_maintenance":
      return `${hostPrefix(reason.host)} in maintenance mode`;
    case "host_connection":
      return `${hostPrefix(reason.host)} connection state ${reason.state}, not CONNECTED`;
    case "metrics_stale":
      return `${hostPrefix(reason.host)} metrics ${sampled(reason.ageS).slice(1, -1)}, older than ${reason.maxAgeS}s`;
    case "metrics_missing":
      return `${hostPrefix(reason.host)} no host-level metrics sample (or none of its counters)`;
    case "inventory_stale":
      return `${hostPrefix(reason.host)} vCenter inventory read ${reason.ageS}s ago, older than ${reason.maxAgeS}s`;
    case "node_unmapped":
      return `node ${reason.node}: no vSphere VM matches its providerID, systemUUID or name`;
    case "vm_host_unknown":
      return `VM ${reason.vm.name} (${reason.vm.id}): its host ${reason.hostId} is not in the polled inventory`;
    case "limit_overcommit": {
      const amount = reason.resource === "cpu" ? (v: number) => (v / 1000).toFixed(1) : (v: number) => `${(v / 2 ** 30).toFixed(1)}Gi`;
      return `${reason.resource} limits ${amount(reason.limits)} / allocatable ${amount(reason.allocatable)} = ${ratioAbove(reason.ratio, reason.max)} > ${reason.max.toFixed(1)} (limit overcommit)`;
    }
    case "stacked_overcommit":
      return `${hostPrefix(reason.host)} pod cpu limits ${(reason.cpuLimitsMilli / 1000).toFixed(1)} / ${reason.cores} physical cores = ${ratioAbove(reason.ratio, reason.max)} > ${reason.max.toFixed(1)} (stacked overcommit)`;
    case "host_spread":
      return `${hostPrefix(reason.host)} ${reason.onHost} replicas of ${reason.owner} already on this host, least loaded candidate host has ${reason.leastOnCandidates} (max skew ${reason.maxSkew}, hvx.io/host-spread: required)`;
    case "workload_pool": {
      const cluster = reason.clusterName !== undefined ? `, its cluster ${reason.clusterName}` : "";
      return `${hostPrefix(reason.host)} not in the ${reason.workloadClass} pool (${poolText(reason.pool)}; workloadClasses.pools.${reason.workloadClass})${cluster}`;
    }
    case "correlated_burst":
      return `${hostPrefix(reason.host)} ${reason.owner} and the groups bursting with it expect ${(reason.groupMhz / 1000).toFixed(1)} GHz / ${(reason.roomMhz / 1000).toFixed(1)} GHz left by non-Kubernetes load (${(reason.nonKubernetesMhz / 1000).toFixed(1)} GHz) = ${reason.share.toFixed(2)} > ${reason.max.toFixed(2)} (correlated burst cap)`;
    default:
      return assertNever(reason);
  }
}

/** A host pool's criteria as text: `clusters prod-a, prod-b; host names esx-0*`. */
function poolText(pool: HostPool): string {
  const parts: string[] = [];
  if (pool.clusters.length > 0) parts.push(`clusters ${pool.clusters.join(", ")}`);
  if (pool.hostNames.length > 0) parts.push(`host names ${pool.hostNames.join(", ")}`);
  return parts.join("; ");
}

/**
 * Joins several reasons for one node into the single string the wire format allows. Reason
 * lists are immutable and shared by the nodes of one host: the extender renders each list once
 * per snapshot through `PlacementIndex.textOf`.
 */
export function formatReasons(reasons: readonly Reason[]): string {
  return reasons.length === 1 ? formatReason(reasons[0]!) : reasons.map(formatReason).join("; ");
}

/** Two decimals, or as many as it takes (up to 4) not to print a ratio that looks equal to its maximum. */
function ratioAbove(ratio: number, max: number): string {
  for (const digits of [2, 3, 4]) {
    const text = ratio.toFixed(digits);
    if (Number(text) > max) return text;
  }
  return ratio.toFixed(4);
}

function hostPrefix(host: HostRef): string {
  return `ESXi host ${host.name} (${host.id}):`;
}

function value(v: number | string, unit: string): string {
  if (typeof v === "string") return v;
  return unit === "%" || unit === "" ? `${v}${unit}` : `${v} ${unit}`;
}

function sampled(ageS: number): string {
  return `(sampled ${ageS}s ago)`;
}

function assertNever(x: never): never {
  throw new Error(`unhandled reason ${JSON.stringify(x)}`);
}
