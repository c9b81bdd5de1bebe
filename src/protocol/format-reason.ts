import type { HostRef, Reason } from "../placement/reason.js";

/**
 * One line per reason, e.g. `ESXi host esx-07 (host-21): cpu ready 12.4% >= 10% (sampled 14s ago)`.
 * This is the only place where reasons become text.
 */
export function formatReason(reason: Reason): string {
  switch (reason.code) {
    case "host_metric":
      return `${hostPrefix(reason.host)} ${reason.metric} ${value(reason.value, reason.unit)} ${reason.op} ${value(reason.threshold, reason.unit)} ${sampled(reason.ageS)}`;
    case "vm_metric":
      return `${hostPrefix(reason.host)} VM ${reason.vm.name} (${reason.vm.id}) ${reason.metric} ${value(reason.value, reason.unit)} ${reason.op} ${value(reason.threshold, reason.unit)} ${sampled(reason.ageS)}`;
    case "host_maintenance":
      return `${hostPrefix(reason.host)} in maintenance mode`;
    case "host_connection":
      return `${hostPrefix(reason.host)} connection state ${reason.state}, not CONNECTED`;
    case "metrics_stale":
      return `${hostPrefix(reason.host)} metrics ${sampled(reason.ageS).slice(1, -1)}, older than ${reason.maxAgeS}s`;
    case "metrics_missing":
      return `${hostPrefix(reason.host)} no metrics sample yet`;
    case "node_unmapped":
      return `node ${reason.node}: no vSphere VM matches its providerID, systemUUID or name`;
    case "vm_host_unknown":
      return `VM ${reason.vm.name} (${reason.vm.id}): its host ${reason.hostId} is not in the polled inventory`;
    default:
      return assertNever(reason);
  }
}

/** Joins several reasons for one node into the single string the wire format allows. */
export function formatReasons(reasons: readonly Reason[]): string {
  return reasons.map(formatReason).join("; ");
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
