/**
 * A host's predicted load peaks, precomputed once per poll from its time-of-day load profile
 * (src/placement/load-profile.ts) so that a placement request looks a deadline up in O(1).
 */

/** The host metrics a load profile learns (the `HostMetrics` fields of the same names and units). */
export const PROFILE_METRICS = ["cpuReadyPercent", "cpuUsagePercent", "memUsagePercent", "balloonPercent", "swapInKBps"] as const;
export type ProfileMetric = (typeof PROFILE_METRICS)[number];

/** One metric's predicted peak: the highest per-bucket p90 over the buckets a horizon covers. */
export interface PredictedValue {
  /** p90 over the days of history of the bucket's mean, in the metric's unit. */
  readonly value: number;
  /** Start of the bucket holding the peak, minutes after midnight UTC (0..1439). */
  readonly minuteOfDay: number;
  /** Days of history behind that p90 (1..profile days). */
  readonly days: number;
}

export type PredictedMetrics = Readonly<Partial<Record<ProfileMetric, PredictedValue>>>;

export interface HostForecast {
  /** The time the peaks are predicted from (the poll's time), epoch ms. */
  readonly fromMs: number;
  readonly bucketMs: number;
  /**
   * `byBuckets[k - 1]`: the peaks over the k buckets starting with the one holding `fromMs`
   * (k = 1 .. buckets per day; a longer horizon covers the whole day).
   */
  readonly byBuckets: readonly PredictedMetrics[];
  /**
   * Host CPU usage % (p90 of the bucket's daily means) per half-hour bucket of the day, 0 = 00:00
   * UTC; NaN where the bucket is not trusted yet. What the correlated-group learner reads.
   */
  readonly cpuUsageByBucket?: ArrayLike<number>;
}
