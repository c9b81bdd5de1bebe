/**
 * Trimaran's TargetLoadPacking score (kubernetes-sigs/scheduler-plugins,
 * pkg/trimaran/targetloadpacking), on the node's (VM's) CPU utilisation only:
 *
 *   predicted% = 100 x (nodeUtil% / 100 x capacityMilli + podMilli + missingMilli) / capacityMilli
 *   predicted% <= target:        score = round((100 - target) x predicted% / target + target)
 *   target < predicted% <= 100:  score = round(target x (100 - predicted%) / (100 - target))
 *   predicted% > 100, or no metrics: score = 0 (MinNodeScore)
 *
 * podMilli is PredictUtilisation: the CPU limit when set, else request x multiplier (1.5),
 * else 1000m. missingMilli sums the same prediction over pods bound to the node that the
 * metrics cannot show yet. target defaults to 40.
 */
export const TLP_DEFAULT_TARGET_PERCENT = 40;
export const TLP_DEFAULT_REQUESTS_MULTIPLIER = 1.5;
export const TLP_DEFAULT_REQUEST_MILLI = 1000;
/** Trimaran's metricsAgentReportingIntervalSeconds. */
export const TLP_REPORTING_INTERVAL_S = 60;

export function predictUtilisationMilli(limitMilli: number, requestMilli: number): number {
  if (limitMilli > 0) return limitMilli;
  if (requestMilli > 0) return Math.round(requestMilli * TLP_DEFAULT_REQUESTS_MULTIPLIER);
  return TLP_DEFAULT_REQUEST_MILLI;
}

export function targetLoadPackingScore(
  nodeUtilPercent: number | undefined,
  capacityMilli: number,
  podMilli: number,
  missingMilli: number,
  targetPercent: number = TLP_DEFAULT_TARGET_PERCENT,
): number {
  if (nodeUtilPercent === undefined) return 0;
  const predicted = capacityMilli !== 0 ? (100 * ((nodeUtilPercent / 100) * capacityMilli + podMilli + missingMilli)) / capacityMilli : 0;
  if (predicted > targetPercent) {
    if (predicted > 100) return 0;
    return Math.round((targetPercent * (100 - predicted)) / (100 - targetPercent));
  }
  return Math.round(((100 - targetPercent) * predicted) / targetPercent + targetPercent);
}
