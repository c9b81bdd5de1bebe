import type { HostForecast, PredictedMetrics, ProfileMetric } from "../model/host-forecast.js";
import type { HostMetrics, HostView } from "../model/inventory.js";
import type { HostAssessment } from "./assess-host.js";
import type { PodMeta } from "./exemption.js";
import { WARM_FRACTION, type PredictionPolicy, type ThresholdPolicy } from "./policy.js";
import { PREDICTION_PERCENTILE, peakWithin } from "./predicted-peak.js";
import type { HostMetricName, Reason } from "./reason.js";

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

interface Rule {
  readonly metric: ProfileMetric;
  readonly name: HostMetricName;
  readonly unit: "%" | "KB/s";
  readonly reject: (t: ThresholdPolicy) => number;
  readonly warn: (t: ThresholdPolicy) => number;
}

/** The same rules, thresholds and warn levels as `assessHost`'s metric checks. */
const RULES: readonly Rule[] = [
  { metric: "cpuReadyPercent", name: "cpu ready", unit: "%", reject: (t) => t.cpuReadyPercent, warn: (t) => t.cpuReadyWarnPercent },
  {
    metric: "cpuUsagePercent",
    name: "cpu usage",
    unit: "%",
    reject: (t) => t.hostCpuUsagePercent,
    warn: (t) => WARM_FRACTION * t.hostCpuUsagePercent,
  },
  {
    metric: "memUsagePercent",
    name: "memory usage",
    unit: "%",
    reject: (t) => t.hostMemoryUsagePercent,
    warn: (t) => WARM_FRACTION * t.hostMemoryUsagePercent,
  },
  { metric: "balloonPercent", name: "balloon", unit: "%", reject: (t) => t.balloonPercent, warn: (t) => WARM_FRACTION * t.balloonPercent },
  { metric: "swapInKBps", name: "swap-in rate", unit: "KB/s", reject: (t) => t.swapInKBps, warn: (t) => WARM_FRACTION * t.swapInKBps },
];

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
  for (const rule of RULES) {
    const now = metrics[rule.metric];
    const peak = peaks[rule.metric];
    if (now === undefined || peak === undefined || peak.value <= now) continue;
    raised[rule.metric] = peak.value;
    changed = true;
    const reject = rule.reject(t);
    const warn = rule.warn(t);
    if (peak.value < warn) continue;
    const crossed = peak.value >= reject;
    const reason: Reason = {
      code: "host_metric",
      host: { id: host.id, name: host.name },
      metric: rule.name,
      value: Math.round(peak.value * 10) / 10,
      op: ">=",
      threshold: crossed ? reject : warn,
      unit: rule.unit,
      ageS: present.ageS ?? 0,
      predicted: { minuteOfDay: peak.minuteOfDay, days: peak.days, percentile: PREDICTION_PERCENTILE },
    };
    (crossed && policy.prediction?.filter ? rejections : warnings).push(reason);
  }
  if (!changed) return undefined;
  const allRejections = rejections.length > 0 ? [...present.rejections, ...rejections] : present.rejections;
  const allWarnings = warnings.length > 0 ? [...present.warnings, ...warnings] : present.warnings;
  const heat = allRejections.length > 0 ? "hot" : allWarnings.length > 0 ? "warm" : "cool";
  return { assessment: { ...present, heat, rejections: allRejections, warnings: allWarnings }, metrics: raised };
}
