import { PROFILE_METRICS, type HostForecast, type PredictedMetrics, type ProfileMetric } from "../model/host-forecast.js";
import type { HostMetrics, HostView } from "../model/inventory.js";
import type { HostAssessment } from "./assess-host.js";
import type { PodMeta } from "./exemption.js";
import type { PredictionPolicy, ThresholdPolicy } from "./policy.js";
import { PREDICTION_PERCENTILE, peakWithin } from "./predicted-peak.js";
import type { Reason } from "./reason.js";
import { HOST_METRIC_RULES, judgeValue, type HostRule } from "./rules/index.js";

/** Controllers whose pods run until replaced: they meet whatever the host does over the horizon. */
const LONG_LIVED_OWNERS: ReadonlySet<string> = new Set(["ReplicaSet", "StatefulSet", "Deployment"]);

/**
 * How far ahead the pod's host must stay cool, ms; 0: the present alone decides.
 * - `activeDeadlineSeconds` set: that deadline, capped at the horizon (a short-lived pod only
 *   meets the peaks before its deadline);
 * - a Job's pod without a deadline: 0 (its run length is unknown: no opinion on the future);
 * - any other pod (ReplicaSet, StatefulSet, Deployment, bare): the horizon.
 */
export function predictionHorizonMs(pod: PodMeta | undefined, policy: PredictionPolicy | undefined): number {
  if (!policy?.enabled || pod === undefined) return 0;
  const horizonMs = policy.horizonHours * 3_600_000;
  if (pod.activeDeadlineSeconds !== undefined) return Math.min(horizonMs, pod.activeDeadlineSeconds * 1000);
  if (pod.ownerKinds.includes("Job") && !pod.ownerKinds.some((k) => LONG_LIVED_OWNERS.has(k))) return 0;
  return horizonMs;
}

export interface PredictedHeat {
  /** The present assessment with the predicted reasons added (rejections only with `filter`, else warnings). */
  readonly assessment: HostAssessment;
  /** The present metrics, each raised to its predicted peak: what the headroom score reads. */
  readonly metrics: HostMetrics;
}

/** The host rules that have a load profile, in judging order. */
const PREDICTED_RULES: ReadonlyArray<HostRule & { readonly field: ProfileMetric }> = HOST_METRIC_RULES.filter(
  (r): r is HostRule & { readonly field: ProfileMetric } => r.predicted && (PROFILE_METRICS as readonly string[]).includes(r.field),
);

/**
 * Judges the host by the worse of its present and its predicted peak over `horizonMs`.
 * A predicted value counts only where the present one is known (an unknown counter stays
 * unknown) and above it. A predicted peak over a rejection threshold is a warning (the host is
 * at best warm) unless `filter`, then a rejection. Undefined when the prediction changes
 * nothing: no forecast, no horizon, no opinion on the present, or no peak above the present.
 */
export function predictHeat(
  present: HostAssessment,
  host: HostView,
  metrics: HostMetrics | undefined,
  forecast: HostForecast | undefined,
  horizonMs: number,
  policy: { readonly thresholds: ThresholdPolicy; readonly prediction?: PredictionPolicy },
): PredictedHeat | undefined {
  if (!forecast || horizonMs <= 0 || !metrics || present.staleness) return undefined;
  const peaks: PredictedMetrics = peakWithin(forecast, horizonMs);
  const t = policy.thresholds;
  const raised: { -readonly [K in keyof HostMetrics]: HostMetrics[K] } = { ...metrics };
  const rejections: Reason[] = [];
  const warnings: Reason[] = [];
  let changed = false;
  for (const rule of PREDICTED_RULES) {
    const now = metrics[rule.field];
    const peak = peaks[rule.field];
    if (now === undefined || peak === undefined || peak.value <= now) continue;
    raised[rule.field] = peak.value;
    changed = true;
    const hit = judgeValue(rule, peak.value, t);
    if (hit === undefined) continue;
    const reason: Reason = {
      code: "host_metric",
      host: { id: host.id, name: host.name },
      metric: rule.metric,
      value: Math.round(peak.value * 10) / 10,
      op: rule.op,
      threshold: hit.threshold,
      unit: rule.unit,
      ageS: present.ageS ?? 0,
      predicted: { minuteOfDay: peak.minuteOfDay, days: peak.days, percentile: PREDICTION_PERCENTILE },
    };
    (hit.level === "reject" && policy.prediction?.filter ? rejections : warnings).push(reason);
  }
  if (!changed) return undefined;
  const allRejections = rejections.length > 0 ? [...present.rejections, ...rejections] : present.rejections;
  const allWarnings = warnings.length > 0 ? [...present.warnings, ...warnings] : present.warnings;
  const heat = allRejections.length > 0 ? "hot" : allWarnings.length > 0 ? "warm" : "cool";
  return { assessment: { ...present, heat, rejections: allRejections, warnings: allWarnings }, metrics: raised };
}
