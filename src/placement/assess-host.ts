import type { HostMetrics, HostView, VmView } from "../model/inventory.js";
import type { ThresholdPolicy } from "./policy.js";
import { NO_REASONS, type HostRef, type Reason } from "./reason.js";
import { HOST_METRIC_RULES, judgeMemoryState, judgeValue, memoryState, VM_METRIC_RULES } from "./rules/index.js";
import { hostHeadroom } from "./score-host.js";

/** hot: a rejection threshold crossed; warm: a warn level crossed; cool: neither. */
export type Heat = "hot" | "warm" | "cool";

export interface HostAssessment {
  readonly heat: Heat;
  /** Thresholds crossed (non-empty exactly when heat is hot). */
  readonly rejections: readonly Reason[];
  /** Warn levels crossed (non-empty when heat is warm). */
  readonly warnings: readonly Reason[];
  /**
   * Why hvx has no opinion on the metrics: no host-level sample, none of its counters, or a
   * sample older than maxMetricAgeSeconds (`metrics_missing`, `metrics_stale`; the state rules
   * still hold), or on the host at all: its inventory entry is older than maxMetricAgeSeconds
   * (`inventory_stale`; no rejection then, not even from the state rules).
   */
  readonly staleness?: Reason;
  /** Age of the host sample in whole seconds (undefined without a sample). */
  readonly ageS?: number;
}

/**
 * Judges one ESXi host, and the node's own VM when given, against the thresholds.
 * State rules (maintenance, connection) hold whatever the metrics' age, but only while the
 * host's inventory entry is fresh; metric rules only apply to fresh samples and to the
 * counters vCenter returned. Pure: `nowMs` is the only notion of time.
 */
export function assessHost(host: HostView, vm: VmView | undefined, t: ThresholdPolicy, nowMs: number): HostAssessment {
  const alone = assessHostAlone(host, t, nowMs);
  return vm ? withVm(alone, host, vm, t, nowMs) : alone;
}

/**
 * Whether what was read at `atMs` (a sample, a host's inventory entry) is too old for a verdict
 * at `nowMs`. Besides the ages its reasons print, this is the only way the clock enters
 * `assessHost`, for the times `clockInputsOf` lists: a caller that keeps a verdict's heat (the
 * `hvx_node_heat` text) knows it holds while the same of those times are too old.
 */
export function isTooOld(atMs: number, nowMs: number, t: ThresholdPolicy): boolean {
  return ageSeconds(atMs, nowMs) > t.maxMetricAgeSeconds;
}

/** The times `assessHost(host, vm)` tests with `isTooOld`: the host's inventory entry and sample, the VM's sample. */
export function clockInputsOf(host: HostView, vm: VmView | undefined): number[] {
  const times = [host.polledAtMs];
  if (host.metrics) times.push(host.metrics.sampledAtMs);
  if (vm?.metrics) times.push(vm.metrics.sampledAtMs);
  return times;
}

const aloneCache = new WeakMap<
  HostView,
  { readonly t: ThresholdPolicy; readonly ageS: number | undefined; readonly stateAgeS: number; readonly result: HostAssessment }
>();

/**
 * The host's own verdict, without any VM: what every node VM on it shares. Host snapshots
 * are immutable and the verdict depends on the clock only through the sample's and the
 * inventory entry's ages in whole seconds, so it is memoised per host object and both ages:
 * requests in the same second share it.
 */
export function assessHostAlone(host: HostView, t: ThresholdPolicy, nowMs: number): HostAssessment {
  const ageS = host.metrics ? ageSeconds(host.metrics.sampledAtMs, nowMs) : undefined;
  const stateAgeS = ageSeconds(host.polledAtMs, nowMs);
  const known = aloneCache.get(host);
  if (known && known.t === t && known.ageS === ageS && known.stateAgeS === stateAgeS) return known.result;
  const result = judgeHostAlone(host, t, nowMs);
  aloneCache.set(host, { t, ageS, stateAgeS, result });
  return result;
}

/** `assessHostAlone` without the memo: for callers that keep their own (the placement index). */
export function judgeHostAlone(host: HostView, t: ThresholdPolicy, nowMs: number): HostAssessment {
  const ref: HostRef = { id: host.id, name: host.name };
  const m = host.metrics;
  const stateAgeS = ageSeconds(host.polledAtMs, nowMs);
  // What hvx last read about the host is too old to say anything, not even "in maintenance".
  if (isTooOld(host.polledAtMs, nowMs, t)) {
    const stale: Reason = { code: "inventory_stale", host: ref, ageS: stateAgeS, maxAgeS: t.maxMetricAgeSeconds };
    return result(NO_REASONS, NO_REASONS, stale, m ? ageSeconds(m.sampledAtMs, nowMs) : undefined);
  }
  const rejections: Reason[] = [];
  const warnings: Reason[] = [];
  if (host.inMaintenance) rejections.push({ code: "host_maintenance", host: ref });
  if (host.connectionState !== "CONNECTED") rejections.push({ code: "host_connection", host: ref, state: host.connectionState });

  if (m === undefined) return result(rejections, warnings, { code: "metrics_missing", host: ref });
  const ageS = ageSeconds(m.sampledAtMs, nowMs);
  if (isTooOld(m.sampledAtMs, nowMs, t)) {
    return result(rejections, warnings, { code: "metrics_stale", host: ref, ageS, maxAgeS: t.maxMetricAgeSeconds }, ageS);
  }
  for (const rule of HOST_METRIC_RULES) {
    const hit = judgeValue(rule, m[rule.field], t);
    if (hit === undefined) continue;
    (hit.level === "reject" ? rejections : warnings).push({
      code: "host_metric",
      host: ref,
      metric: rule.metric,
      value: round1(m[rule.field]!),
      op: rule.op,
      threshold: hit.threshold,
      unit: rule.unit,
      ageS,
    });
  }
  checkMemState(m, ref, ageS, rejections, warnings);
  // A sample without any headroom counter says nothing about room on the host: no opinion
  // (the rules on the counters it does carry, memory state, still hold).
  return result(
    rejections,
    warnings,
    hostHeadroom(m, undefined, t) !== undefined ? undefined : { code: "metrics_missing", host: ref },
    ageS,
  );
}

function checkMemState(m: HostMetrics, host: HostRef, ageS: number, rejections: Reason[], warnings: Reason[]): void {
  const level = judgeMemoryState(m.memState);
  if (level === undefined) return;
  (level === "reject" ? rejections : warnings).push({
    code: "host_metric",
    host,
    metric: memoryState.metric,
    value: m.memState!,
    op: memoryState.op,
    threshold: (level === "reject" ? memoryState.reject : memoryState.warn).join("|"),
    unit: memoryState.unit,
    ageS,
  });
}

const vmCache = new WeakMap<
  VmView,
  { readonly alone: HostAssessment; readonly t: ThresholdPolicy; readonly ageS: number; readonly result: HostAssessment }
>();

/**
 * Adds the node VM's own rules (ready, any balloon) to its host's assessment. Memoised per
 * VM snapshot, host verdict and sample age (in whole seconds), like `assessHostAlone`.
 */
export function withVm(alone: HostAssessment, host: HostView, vm: VmView, t: ThresholdPolicy, nowMs: number): HostAssessment {
  const ageS = vm.metrics ? ageSeconds(vm.metrics.sampledAtMs, nowMs) : -1;
  const known = vmCache.get(vm);
  if (known && known.alone === alone && known.t === t && known.ageS === ageS) return known.result;
  const result = judgeVm(alone, host, vm, t, nowMs);
  vmCache.set(vm, { alone, t, ageS, result });
  return result;
}

/** `withVm` without the memo: for callers that keep their own (the placement index). */
export function judgeVm(alone: HostAssessment, host: HostView, vm: VmView, t: ThresholdPolicy, nowMs: number): HostAssessment {
  const m = vm.metrics;
  // Without host metrics the node VM's own fresh sample still speaks for the VM (issue 29 §6).
  if (m === undefined || (alone.staleness && alone.staleness.code !== "metrics_missing")) return alone;
  const ageS = ageSeconds(m.sampledAtMs, nowMs);
  if (isTooOld(m.sampledAtMs, nowMs, t)) return alone;
  let rejections: Reason[] | undefined;
  let warnings: Reason[] | undefined;
  for (const rule of VM_METRIC_RULES) {
    const hit = judgeValue(rule, m[rule.field], t);
    if (hit === undefined) continue;
    const reason: Reason = {
      code: "vm_metric",
      host: { id: host.id, name: host.name },
      vm: { id: vm.id, name: vm.name },
      metric: rule.metric,
      value: round1(m[rule.field]!),
      op: rule.op,
      threshold: hit.threshold,
      unit: rule.unit,
      ageS,
    };
    if (hit.level === "reject") (rejections ??= [...alone.rejections]).push(reason);
    else (warnings ??= [...alone.warnings]).push(reason);
  }
  if (!rejections && !warnings) return alone;
  return result(rejections ?? alone.rejections, warnings ?? alone.warnings, alone.staleness, alone.ageS);
}

function result(rejections: readonly Reason[], warnings: readonly Reason[], staleness: Reason | undefined, ageS?: number): HostAssessment {
  const heat: Heat = rejections.length > 0 ? "hot" : warnings.length > 0 ? "warm" : "cool";
  const out: { -readonly [K in keyof HostAssessment]: HostAssessment[K] } = {
    heat,
    rejections: rejections.length > 0 ? rejections : NO_REASONS,
    warnings: warnings.length > 0 ? warnings : NO_REASONS,
  };
  if (staleness) out.staleness = staleness;
  if (ageS !== undefined) out.ageS = ageS;
  return out;
}

/** Whole seconds since a sample, never negative: what a verdict's reasons print. */
export function ageSeconds(sampledAtMs: number, nowMs: number): number {
  return Math.max(0, Math.round((nowMs - sampledAtMs) / 1000));
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
