import { PROFILE_METRICS, type ProfileMetric } from "../model/host-forecast.js";

/**
 * Bucket length: 30 minutes. vCenter's past-week statistics interval is 1800 s, so a warm
 * start fills each bucket with one historical sample per day, and half an hour still
 * resolves a business-hours ramp (a 1-hour bucket would smear a 13:30 peak over 13:00-14:00).
 */
export const PROFILE_BUCKET_MS = 30 * 60_000;
export const DAY_MS = 86_400_000;
export const BUCKETS_PER_DAY = DAY_MS / PROFILE_BUCKET_MS;
/** Days of history per bucket: one week covers the weekly cycle (weekday vs weekend) once; older days are forgotten. */
export const PROFILE_DAYS = 7;
/** Day slots stored: a week back from any time of today still needs the day 7 days ago for its later buckets. */
const SLOTS = PROFILE_DAYS + 1;

const M = PROFILE_METRICS.length;

export type ProfileSample = Readonly<Partial<Record<ProfileMetric, number>>>;

/**
 * One ESXi host's load over the time of day (UTC): for each of the last `PROFILE_DAYS` days
 * and each 30-minute bucket, the time-weighted mean of every `PROFILE_METRICS` metric.
 * Samples of any interval length (20 s real-time, 300 s or 1800 s history) mix in one bucket
 * weighted by the seconds they cover, so a 30-minute average and ninety 20-s samples of the
 * same half hour count the same. No clock: every sample carries its own time.
 */
export class LoadProfile {
  /** Day number (epoch ms / DAY_MS) each day slot holds, -1 when empty. */
  private readonly slotDay = new Float64Array(SLOTS).fill(-1);
  private readonly sums = new Float64Array(SLOTS * BUCKETS_PER_DAY * M);
  private readonly weights = new Float64Array(SLOTS * BUCKETS_PER_DAY * M);
  private newest = -1;
  /** Bumped whenever a bucket's cells change: what the percentile cache is checked against. */
  private readonly stamps = new Uint32Array(BUCKETS_PER_DAY);
  private cached: { fromBucket: number; stamps: Uint32Array; values: Float64Array; days: Uint8Array } | undefined;

  /**
   * Adds a sample stamped at the end of its interval (vCenter's convention), `intervalS`
   * seconds long; it counts in the bucket of its interval's midpoint. A sample of a day the
   * profile no longer keeps (8 days before the newest) is ignored. Non-finite or negative values are ignored.
   */
  record(endMs: number, intervalS: number, sample: ProfileSample): void {
    if (!Number.isFinite(endMs) || !(intervalS > 0)) return;
    const atMs = endMs - (intervalS * 1000) / 2;
    const day = Math.floor(atMs / DAY_MS);
    if (day <= this.newest - SLOTS) return;
    const slot = mod(day, SLOTS);
    if (this.slotDay[slot] !== day) {
      // The slot held a day 8 days older (or nothing): start it afresh.
      const from = slot * BUCKETS_PER_DAY * M;
      this.sums.fill(0, from, from + BUCKETS_PER_DAY * M);
      this.weights.fill(0, from, from + BUCKETS_PER_DAY * M);
      this.slotDay[slot] = day;
      for (let b = 0; b < BUCKETS_PER_DAY; b++) this.stamps[b]!++;
    }
    this.newest = Math.max(this.newest, day);
    const bucket = bucketOf(atMs);
    this.stamps[bucket]!++;
    const cell = (slot * BUCKETS_PER_DAY + bucket) * M;
    for (let m = 0; m < M; m++) {
      const v = sample[PROFILE_METRICS[m]!];
      if (v === undefined || !Number.isFinite(v) || v < 0) continue;
      this.sums[cell + m]! += v * intervalS;
      this.weights[cell + m]! += intervalS;
    }
  }

  /** Whether any sample was recorded. */
  get empty(): boolean {
    return this.newest < 0;
  }

  /**
   * The means of `metric` (index in PROFILE_METRICS) in `bucket` (0..47) over its last
   * `PROFILE_DAYS` occurrences up to `fromMs` (the buckets starting in (fromMs - 7 days, fromMs]),
   * appended to `out`, one value per day with data; returns `out`.
   */
  bucketMeans(metric: number, bucket: number, fromMs: number, out: number[]): number[] {
    for (let slot = 0; slot < SLOTS; slot++) {
      const d = this.slotDay[slot]!;
      if (d < 0) continue;
      const startMs = d * DAY_MS + bucket * PROFILE_BUCKET_MS;
      if (startMs > fromMs || startMs <= fromMs - PROFILE_DAYS * DAY_MS) continue;
      const i = (slot * BUCKETS_PER_DAY + bucket) * M + metric;
      const w = this.weights[i]!;
      if (w > 0) out.push(this.sums[i]! / w);
    }
    return out;
  }

  /**
   * Per bucket b and metric m (index b x M + m): the `percentile` of the bucket's daily means
   * over its last `PROFILE_DAYS` occurrences up to `fromMs` (NaN without data) and the days
   * behind it. The answer changes only when a bucket's cells change or `fromMs` enters another
   * half hour, so it is kept and recomputed bucket by bucket: a poll that adds one sample
   * recomputes one bucket. The arrays are the cache's own: read, never keep or write them.
   */
  bucketPercentiles(fromMs: number, p: number): { readonly values: Float64Array; readonly days: Uint8Array } {
    const fromBucket = Math.floor(fromMs / PROFILE_BUCKET_MS);
    let c = this.cached;
    const all = !c || c.fromBucket !== fromBucket;
    if (!c)
      c = this.cached = {
        fromBucket,
        stamps: new Uint32Array(BUCKETS_PER_DAY),
        values: new Float64Array(BUCKETS_PER_DAY * M),
        days: new Uint8Array(BUCKETS_PER_DAY * M),
      };
    c.fromBucket = fromBucket;
    const means: number[] = [];
    for (let b = 0; b < BUCKETS_PER_DAY; b++) {
      if (!all && c.stamps[b] === this.stamps[b]) continue;
      c.stamps[b] = this.stamps[b]!;
      for (let m = 0; m < M; m++) {
        means.length = 0;
        this.bucketMeans(m, b, fromMs, means);
        c.values[b * M + m] = means.length > 0 ? percentile(means, p) : Number.NaN;
        c.days[b * M + m] = means.length;
      }
    }
    return c;
  }
}

/** Linear interpolation between closest ranks (numpy's default); sorts `values` in place. */
export function percentile(values: number[], p: number): number {
  values.sort((a, b) => a - b);
  const rank = ((values.length - 1) * p) / 100;
  const lo = Math.floor(rank);
  const hi = Math.min(values.length - 1, lo + 1);
  return values[lo]! + (values[hi]! - values[lo]!) * (rank - lo);
}

/** The bucket (0..BUCKETS_PER_DAY - 1) holding `atMs`, in UTC. */
export function bucketOf(atMs: number): number {
  return Math.floor(mod(atMs, DAY_MS) / PROFILE_BUCKET_MS);
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}
