import type { HostView, InventoryView } from "../model/inventory.js";
import type { HostAssessment } from "../placement/assess-host.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { predictHeat } from "../placement/predicted-heat.js";
import { PREDICTION_PERCENTILE, peakWithin } from "../placement/predicted-peak.js";
import type { DebugPredictionWire } from "../protocol/debug-wire.js";
import { formatReason } from "../protocol/format-reason.js";

/**
 * A host's prediction in `/debug/hosts`: its predicted peaks over `prediction.horizonHours`
 * (what a long-lived pod is scored by) and the heat and reasons they give. Null when
 * prediction is off or the host has no history yet (the present alone decides).
 */
export function debugPrediction(
  inventory: InventoryView,
  host: HostView,
  present: HostAssessment,
  policy: PlacementPolicy,
): DebugPredictionWire | null {
  const forecast = inventory.forecasts?.get(host.id);
  if (!policy.prediction?.enabled || !forecast) return null;
  const horizonMs = policy.prediction.horizonHours * 3_600_000;
  const peaks = Object.fromEntries(
    Object.entries(peakWithin(forecast, horizonMs)).map(([metric, p]) => [
      metric,
      { value: Math.round(p.value * 100) / 100, around: `${hhmm(p.minuteOfDay)} UTC`, days: p.days, percentile: PREDICTION_PERCENTILE },
    ]),
  );
  const judged = predictHeat(present, host, host.metrics, forecast, horizonMs, policy)?.assessment ?? present;
  return {
    horizonHours: policy.prediction.horizonHours,
    from: new Date(forecast.fromMs).toISOString(),
    peaks,
    heat: judged.staleness && judged.rejections.length === 0 ? "unknown" : judged.heat,
    reasons: [...judged.rejections, ...judged.warnings].filter((r) => r.code === "host_metric" && r.predicted).map(formatReason),
  };
}

function hhmm(minuteOfDay: number): string {
  return `${String(Math.floor(minuteOfDay / 60)).padStart(2, "0")}:${String(minuteOfDay % 60).padStart(2, "0")}`;
}
