import type { HostView, VmView } from "../model/inventory.js";
import { WARM_FRACTION, type ThresholdPolicy } from "./policy.js";
import type { HostRef, Reason } from "./reason.js";

/** hot: a rejection threshold crossed; warm: a warn level crossed; cool: neither. */
export type Heat = "hot" | "warm" | "cool";

export interface HostAssessment {
  readonly heat: Heat;
  /** Thresholds crossed (non-empty exactly when heat is hot). */
  readonly rejections: readonly Reason[];
  /** Warn levels crossed (non-empty when heat is warm). */
  readonly warnings: readonly Reason[];
  /** The metrics cannot be trusted: none yet, or older than maxMetricAgeSeconds. */
  readonly staleness?: Reason;
  /** Age of the host sample in whole seconds (undefined without a sample). */
  readonly ageS?: number;
}

const HARD_MEM_STATES: ReadonlySet<string> = new Set(["hard", "low"]);

/**
 * Judges one ESXi host, and the node's own VM when given, against the thresholds.
 * State rules (maintenance, connection) hold whatever the metrics' age; metric rules
 * only apply to fresh samples. Pure: `nowMs` is the only notion of time.
 */
export function assessHost(host: HostView, vm: VmView | undefined, t: ThresholdPolicy, nowMs: number): HostAssessment {
  const ref: HostRef = { id: host.id, name: host.name };
  const rejections: Reason[] = [];
  const warnings: Reason[] = [];
  if (host.inMaintenance) rejections.push({ code: "host_maintenance", host: ref });
  if (host.connectionState !== "CONNECTED") rejections.push({ code: "host_connection", host: ref, state: host.connectionState });

  const m = host.metrics;
  if (m === undefined) return result(rejections, warnings, { code: "metrics_missing", host: ref });
  const ageS = Math.max(0, Math.round((nowMs - m.sampledAtMs) / 1000));
  if (ageS > t.maxMetricAgeSeconds) {
    return result(rejections, warnings, { code: "metrics_stale", host: ref, ageS, maxAgeS: t.maxMetricAgeSeconds }, ageS);
  }

  const check = (metric: HostMetricCheck) => {
    if (metric.value === undefined) return;
    const base = { code: "host_metric" as const, host: ref, metric: metric.name, value: round1(metric.value), unit: metric.unit, ageS };
    if (metric.value >= metric.reject) rejections.push({ ...base, op: ">=", threshold: metric.reject });
    else if (metric.value >= metric.warn) warnings.push({ ...base, op: ">=", threshold: metric.warn });
  };
  check({ name: "cpu ready", value: m.cpuReadyPercent, reject: t.cpuReadyPercent, warn: t.cpuReadyWarnPercent, unit: "%" });
  check({ name: "cpu usage", value: m.cpuUsagePercent, reject: t.hostCpuUsagePercent, warn: WARM_FRACTION * t.hostCpuUsagePercent, unit: "%" });
  check({ name: "memory usage", value: m.memUsagePercent, reject: t.hostMemoryUsagePercent, warn: WARM_FRACTION * t.hostMemoryUsagePercent, unit: "%" });
  check({ name: "balloon", value: m.balloonPercent, reject: t.balloonPercent, warn: WARM_FRACTION * t.balloonPercent, unit: "%" });
  check({ name: "swap-in rate", value: m.swapInKBps, reject: t.swapInKBps, warn: WARM_FRACTION * t.swapInKBps, unit: "KB/s" });
  if (m.memState !== undefined && HARD_MEM_STATES.has(m.memState)) {
    rejections.push({ code: "host_metric", host: ref, metric: "memory state", value: m.memState, op: "in", threshold: "hard|low", unit: "", ageS });
  } else if (m.memState === "soft") {
    warnings.push({ code: "host_metric", host: ref, metric: "memory state", value: m.memState, op: "in", threshold: "soft", unit: "", ageS });
  }

  if (vm?.metrics !== undefined) assessVm(vm, ref, t, nowMs, rejections, warnings);
  return result(rejections, warnings, undefined, ageS);
}

interface HostMetricCheck {
  readonly name: "cpu ready" | "cpu usage" | "memory usage" | "balloon" | "swap-in rate";
  readonly value: number | undefined;
  readonly reject: number;
  readonly warn: number;
  readonly unit: "%" | "KB/s";
}

function assessVm(vm: VmView, host: HostRef, t: ThresholdPolicy, nowMs: number, rejections: Reason[], warnings: Reason[]): void {
  const m = vm.metrics;
  if (m === undefined) return;
  const ageS = Math.max(0, Math.round((nowMs - m.sampledAtMs) / 1000));
  if (ageS > t.maxMetricAgeSeconds) return;
  const vmRef = { id: vm.id, name: vm.name };
  const ready = m.cpuReadyPercent;
  if (ready !== undefined) {
    const base = { code: "vm_metric" as const, host, vm: vmRef, metric: "cpu ready" as const, value: round1(ready), op: ">=" as const, unit: "%" as const, ageS };
    if (ready >= t.cpuReadyPercent) rejections.push({ ...base, threshold: t.cpuReadyPercent });
    else if (ready >= t.cpuReadyWarnPercent) warnings.push({ ...base, threshold: t.cpuReadyWarnPercent });
  }
  // Any balloon on the node's own VM means ESXi is already taking memory from this node's pods.
  if (m.balloonMiB !== undefined && m.balloonMiB > 0) {
    rejections.push({ code: "vm_metric", host, vm: vmRef, metric: "balloon", value: round1(m.balloonMiB), op: ">", threshold: 0, unit: "MiB", ageS });
  }
}

function result(rejections: Reason[], warnings: Reason[], staleness: Reason | undefined, ageS?: number): HostAssessment {
  const heat: Heat = rejections.length > 0 ? "hot" : warnings.length > 0 ? "warm" : "cool";
  return { heat, rejections, warnings, ...(staleness ? { staleness } : {}), ...(ageS !== undefined ? { ageS } : {}) };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
