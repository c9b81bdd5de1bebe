import {
  PROFILE_METRICS,
  type HostForecast,
  type PredictedMetrics,
  type PredictedValue,
  type ProfileMetric,
} from "../model/host-forecast.js";
import { BUCKETS_PER_DAY, PROFILE_BUCKET_MS, bucketOf, type LoadProfile } from "./load-profile.js";

export { percentile } from "./load-profile.js";

/**
 * The percentile of a bucket's daily means taken as its prediction. p90 rather than the
 * maximum, so one odd day (a backup run, an incident) does not brand the host for a week;
 * rather than the median, because contention is what placement must avoid: a peak that comes
 * back most days counts. Linear interpolation between the closest ranks: with 7 days,
 * rank 5.4 of 0..6, i.e. 0.6 x the second highest day + 0.4 x the highest.
 */
export const PREDICTION_PERCENTILE = 90;

/**
 * Days of history a half-hour bucket needs before it predicts anything (issue 26 §2): with
 * fewer, its p90 is one day's own value (or 0.9 of the higher of two), so whatever that day
 * held (the pods not there yet, one backup) would decide for the whole horizon. Measured in
 * the twin: one day of history made hvx's contention worse in 2 of 3 seeds. Why three:
 * docs/prediction.md, "When a profile is trusted".
 */
export const MIN_TRUSTED_DAYS = 3;

/**
 * Per metric, the highest p90 over the buckets that `[fromMs, fromMs + horizonMs)` covers (a
 * horizon of a day or more covers every bucket), and the time of day of that bucket.
 * Empty (`{}`) for an empty profile or a horizon <= 0.
 */
export function predictedPeak(profile: LoadProfile, fromMs: number, horizonMs: number): PredictedMetrics {
  const forecast = buildHostForecast(profile, fromMs);
  return forecast ? peakWithin(forecast, horizonMs) : {};
}

/**
 * Precomputes the peaks of every horizon from `fromMs` (1 to 48 buckets), so that a request
 * looks up its pod's horizon in O(1), from the buckets with `MIN_TRUSTED_DAYS` days of history
 * or more. Undefined when no bucket has that much (an empty or too young profile): the present
 * alone decides for that host.
 */
export function buildHostForecast(profile: LoadProfile, fromMs: number): HostForecast | undefined {
  if (profile.empty) return undefined;
  const first = bucketOf(fromMs);
  const { values, days } = profile.bucketPercentiles(fromMs, PREDICTION_PERCENTILE);
  const M = PROFILE_METRICS.length;
  const byBuckets: PredictedMetrics[] = [];
  const cpu = PROFILE_METRICS.indexOf("cpuUsagePercent");
  const cpuUsageByBucket = new Float64Array(BUCKETS_PER_DAY).fill(Number.NaN);
  const running: Partial<Record<ProfileMetric, PredictedValue>> = {};
  for (let k = 0; k < BUCKETS_PER_DAY; k++) {
    const bucket = (first + k) % BUCKETS_PER_DAY;
    let changed = k === 0;
    for (let m = 0; m < M; m++) {
      const value = values[bucket * M + m]!;
      if (Number.isNaN(value) || days[bucket * M + m]! < MIN_TRUSTED_DAYS) continue;
      if (m === cpu) cpuUsageByBucket[bucket] = value;
      const name = PROFILE_METRICS[m]!;
      const best = running[name];
      if (best === undefined || value > best.value) {
        running[name] = { value, minuteOfDay: (bucket * PROFILE_BUCKET_MS) / 60_000, days: days[bucket * M + m]! };
        changed = true;
      }
    }
    // Unchanged peaks share the previous entry: most of a day's 48 entries are the same object.
    byBuckets.push(changed ? Object.freeze({ ...running }) : byBuckets[k - 1]!);
  }
  if (Object.keys(running).length === 0) return undefined;
  return { fromMs, bucketMs: PROFILE_BUCKET_MS, byBuckets, cpuUsageByBucket };
}

/** The peaks over the buckets `[forecast.fromMs, + horizonMs)` covers; `{}` for a horizon <= 0. O(1). */
export function peakWithin(forecast: HostForecast, horizonMs: number): PredictedMetrics {
  if (!(horizonMs > 0)) return {};
  const offset = forecast.fromMs - Math.floor(forecast.fromMs / forecast.bucketMs) * forecast.bucketMs;
  const k = Math.min(forecast.byBuckets.length, Math.floor((offset + horizonMs - 1) / forecast.bucketMs) + 1);
  return forecast.byBuckets[k - 1] ?? {};
}
