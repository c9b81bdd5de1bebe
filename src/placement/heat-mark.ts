import type { HostView, VmView } from "../model/inventory.js";
import { assessHost, type Heat, type HostAssessment } from "./assess-host.js";
import type { ThresholdPolicy } from "./policy.js";
import type { Reason } from "./reason.js";
import { ruleNameOf, THRESHOLD_KEYS } from "./rules/index.js";

/**
 * The `hvx.io/host-heat` annotation: stable text only (the heat word and the names of the
 * rules that fired, `hot: cpu-ready, vm-balloon`, `cool` alone), with hysteresis, so that a
 * Node is patched only when its host really changed state. Every patch of a Node wakes every
 * Node watcher and makes kube-scheduler retry every pod it had set aside.
 * Pure: time comes in as `nowMs`.
 */

/** What one poll says about a node's host (and the node's own VM). */
export interface HeatReading {
  readonly heat: Heat;
  /** Names of the rules behind that heat: rejections when hot, warn levels when warm. */
  readonly rules: readonly string[];
  /** Every value is below its rejection threshold by the hysteresis margin (no rule fires at the lowered thresholds). */
  readonly clear: boolean;
  /** Time of the host sample: tells one poll from the next. */
  readonly sampleMs: number | undefined;
}

/** The heat a node carries, and what the hysteresis remembers about it. */
export interface HeatMark {
  readonly heat: Heat;
  readonly rules: readonly string[];
  /** When the text last changed (-Infinity: long ago, e.g. a mark read back from the Node). */
  readonly changedAtMs: number;
  /** Consecutive polls (distinct samples) with a clear reading. */
  readonly clearPolls: number;
  readonly lastSampleMs: number | undefined;
}

export interface HeatHysteresis {
  /** A hot host turns warm only once each value is this % of its threshold below it (`nodeLabels.hysteresisPercent`). */
  readonly hysteresisPercent: number;
  /** The text changes at most once per this many seconds (`nodeLabels.minHeatChangeSeconds`). */
  readonly minHeatChangeSeconds: number;
}

/** Clear polls in a row before a hot mark may cool. */
export const CLEAR_POLLS_TO_COOL = 2;

/** The rule name of a reason: `cpu-ready`, `memory-usage`, `swap-in`, `vm-balloon`, `maintenance`, ... */
export function ruleName(reason: Reason): string {
  switch (reason.code) {
    case "host_metric":
      return ruleNameOf("host", reason.metric) ?? reason.metric.replace(/ /g, "-");
    case "vm_metric":
      return ruleNameOf("vm", reason.metric) ?? `vm-${reason.metric.replace(/ /g, "-")}`;
    case "host_maintenance":
      return "maintenance";
    case "host_connection":
      return "not-connected";
    default:
      return reason.code.replace(/_/g, "-");
  }
}

/**
 * Reads a node's heat from one poll; undefined when hvx has no opinion (stale or missing
 * metrics and no state rule firing), so the node keeps whatever it carries.
 */
export function readHeat(
  host: HostView,
  vm: VmView | undefined,
  t: ThresholdPolicy,
  nowMs: number,
  hysteresisPercent: number,
): HeatReading | undefined {
  const a = assessHost(host, vm, t, nowMs);
  if (a.staleness && a.rejections.length === 0) return undefined;
  const lowered = assessHost(host, vm, loweredThresholds(t, hysteresisPercent), nowMs);
  return { heat: a.heat, rules: rulesOf(a), clear: lowered.rejections.length === 0, sampleMs: host.metrics?.sampledAtMs };
}

/**
 * The next mark: a hot mark cools only after `CLEAR_POLLS_TO_COOL` clear polls in a row, and
 * the text (heat or rules) changes at most once per `minHeatChangeSeconds`. A first reading
 * (no previous mark) is taken as it is.
 */
export function nextHeatMark(prev: HeatMark | undefined, reading: HeatReading, nowMs: number, h: HeatHysteresis): HeatMark {
  if (!prev)
    return {
      heat: reading.heat,
      rules: reading.rules,
      changedAtMs: nowMs,
      clearPolls: reading.clear ? 1 : 0,
      lastSampleMs: reading.sampleMs,
    };
  const newPoll = reading.sampleMs !== prev.lastSampleMs;
  const clearPolls = !reading.clear ? 0 : newPoll ? prev.clearPolls + 1 : prev.clearPolls;
  const holdHot = prev.heat === "hot" && reading.heat !== "hot" && clearPolls < CLEAR_POLLS_TO_COOL;
  const target = holdHot ? prev : reading;
  const changed = target.heat !== prev.heat || !sameRules(target.rules, prev.rules);
  const tooSoon = nowMs - prev.changedAtMs < h.minHeatChangeSeconds * 1000;
  if (!changed || tooSoon) return { ...prev, clearPolls, lastSampleMs: reading.sampleMs };
  return { heat: target.heat, rules: target.rules, changedAtMs: nowMs, clearPolls, lastSampleMs: reading.sampleMs };
}

/** `cool`, `warm: cpu-ready`, `hot: cpu-ready, vm-balloon`. */
export function heatText(mark: Pick<HeatMark, "heat" | "rules">): string {
  return mark.heat === "cool" || mark.rules.length === 0 ? mark.heat : `${mark.heat}: ${mark.rules.join(", ")}`;
}

/**
 * A mark read back from a Node's annotation (another leader wrote it, or this one before a
 * restart), so the hysteresis carries over; undefined when the text is not a heat mark.
 */
export function parseHeatText(text: string | undefined): HeatMark | undefined {
  const m = /^(hot|warm|cool)(?::\s*(.*))?$/.exec(text ?? "");
  if (!m) return undefined;
  const rules = (m[2] ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter((r) => /^[a-z][a-z-]*$/.test(r));
  return { heat: m[1] as Heat, rules, changedAtMs: Number.NEGATIVE_INFINITY, clearPolls: 0, lastSampleMs: undefined };
}

function rulesOf(a: HostAssessment): readonly string[] {
  const reasons = a.heat === "hot" ? a.rejections : a.heat === "warm" ? a.warnings : [];
  return [...new Set(reasons.map(ruleName))];
}

function sameRules(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

/** Each rejection threshold lowered by `percent` of itself (warn levels no higher than them); a threshold left unset stays unset. */
export function loweredThresholds(t: ThresholdPolicy, percent: number): ThresholdPolicy {
  const f = 1 - percent / 100;
  const out: { -readonly [K in keyof ThresholdPolicy]: ThresholdPolicy[K] } = { ...t };
  for (const keys of THRESHOLD_KEYS) {
    const reject = t[keys.reject];
    if (reject === undefined) continue;
    out[keys.reject] = reject * f;
    const warn = keys.warn !== undefined ? t[keys.warn] : undefined;
    if (keys.warn !== undefined && warn !== undefined) out[keys.warn] = Math.min(warn, reject * f);
  }
  return out;
}
