/**
 * Which replica groups burst with which other groups, learnt from the hosts' load history (the
 * half-hour profiles predicted heat keeps, src/placement/load-profile.ts) and where each group's
 * pods run in the cluster view. Pure: one call per snapshot.
 *
 * A group's rhythm is the load of the hosts it runs on, weighted by its expected demand there,
 * taken relative to the cluster's: for each half-hour bucket b,
 *   rhythm_g(b) = sum_h w_gh x load_h(b) / sum_h w_gh  -  sum_h W_h x load_h(b) / sum_h W_h
 * (w_gh: the group's expected CPU on host h; W_h: every group's). Two groups whose rhythms
 * correlate (Pearson r >= `minCorrelation` over the buckets both know) rise together on the
 * hosts they share, beyond what every host does. Why relative: a rhythm the whole cluster shares
 * (the business day) peaks on every host at once, so no placement avoids it; only the part that
 * differs between hosts is something a placement can spread. It also keeps groups that merely run
 * everywhere from looking alike. A group whose rhythm swings less than `minSwingPercent` has no
 * rhythm of its own and no partner. Host-level history cannot tell apart groups that always share
 * the same hosts: they count together, the cautious side for a cap.
 */
export interface GroupLearningOptions {
  readonly minCorrelation: number;
  /** Buckets known to both groups before a correlation counts: 24 (half a day). */
  readonly minBuckets: number;
  /** Smallest swing (max - min over the buckets) of a rhythm, in CPU usage percentage points. */
  readonly minSwingPercent: number;
  /** Groups considered, the ones with the most expected CPU first: bounds time (quadratic) and memory. */
  readonly maxGroups: number;
}

export const DEFAULT_GROUP_LEARNING: GroupLearningOptions = { minCorrelation: 0.8, minBuckets: 24, minSwingPercent: 5, maxGroups: 64 };

/** Owner key -> the owner keys of the groups that burst with it (never itself); groups without partners are absent. */
export type CorrelatedGroups = ReadonlyMap<string, readonly string[]>;

export const NO_CORRELATED_GROUPS: CorrelatedGroups = new Map();

/**
 * @param hostLoad host id -> per half-hour bucket, the host's CPU usage % (NaN: no trusted history).
 * @param demandOnHost host id -> owner key -> the group's expected CPU there, millicores.
 */
export function learnCorrelatedGroups(
  hostLoad: ReadonlyMap<string, ArrayLike<number>>,
  demandOnHost: ReadonlyMap<string, ReadonlyMap<string, number>>,
  opts: GroupLearningOptions = DEFAULT_GROUP_LEARNING,
): CorrelatedGroups {
  return finish(learningSteps(hostLoad, demandOnHost, opts));
}

/** Runs `steps` to its end. */
function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * `learnCorrelatedGroups` in steps, each about one host's groups, one group's rhythm or one row
 * of correlations: a server learns between requests (src/placement/snapshot-correlated-groups.ts),
 * where the whole of it (some 30 ms on 250 hosts) would hold a request.
 */
export function* learningSteps(
  hostLoad: ReadonlyMap<string, ArrayLike<number>>,
  demandOnHost: ReadonlyMap<string, ReadonlyMap<string, number>>,
  opts: GroupLearningOptions = DEFAULT_GROUP_LEARNING,
): Generator<void, CorrelatedGroups> {
  const totals = new Map<string, number>();
  for (const [hostId, byOwner] of demandOnHost) {
    if (!hostLoad.has(hostId)) continue;
    for (const [owner, milli] of byOwner) if (milli > 0) totals.set(owner, (totals.get(owner) ?? 0) + milli);
    yield;
  }
  const owners = mostDemanding(totals, opts.maxGroups);
  if (owners.length < 2) return NO_CORRELATED_GROUPS;
  yield;
  const buckets = Math.max(0, ...[...hostLoad.values()].map((l) => l.length));
  const cluster = weightedLoad(hostLoad, demandOnHost, buckets, allDemand);
  const rhythms = new Map<string, Float64Array>();
  for (const owner of owners) {
    yield;
    // One lookup per host: scanning every host's groups for each owner cost 0.5-1.3 s of blocked event loop per poll on 250 hosts.
    const own = weightedLoad(hostLoad, demandOnHost, buckets, (byOwner) => Math.max(0, byOwner.get(owner) ?? 0));
    for (let b = 0; b < buckets; b++) own[b] = own[b]! - cluster[b]!;
    if (swing(own) >= opts.minSwingPercent) rhythms.set(owner, own);
  }
  const out = new Map<string, string[]>();
  const list = [...rhythms];
  for (let i = 0; i < list.length; i++) {
    yield;
    for (let j = i + 1; j < list.length; j++) {
      const r = pearson(list[i]![1], list[j]![1], opts.minBuckets);
      if (r === undefined || r < opts.minCorrelation) continue;
      const [a, b] = [list[i]![0], list[j]![0]];
      (out.get(a) ?? out.set(a, []).get(a)!).push(b);
      (out.get(b) ?? out.set(b, []).get(b)!).push(a);
    }
  }
  for (const partners of out.values()) partners.sort();
  return out;
}

/**
 * The `k` owners with the most demand, most first, ties by name: one pass over the owners, each
 * compared with the last kept. A cluster of 50 000 pods holds some 10 000 replica groups, and
 * sorting them all (two map lookups per comparison) held the first request after every poll.
 */
export function mostDemanding(totals: ReadonlyMap<string, number>, k: number): string[] {
  const top: { owner: string; milli: number }[] = [];
  const ahead = (owner: string, milli: number, of: { owner: string; milli: number }) =>
    milli > of.milli || (milli === of.milli && owner < of.owner);
  totals.forEach((milli, owner) => {
    if (k <= 0 || (top.length === k && !ahead(owner, milli, top[k - 1]!))) return;
    if (top.length === k) top.pop();
    let at = top.length;
    while (at > 0 && ahead(owner, milli, top[at - 1]!)) at--;
    top.splice(at, 0, { owner, milli });
  });
  return top.map((t) => t.owner);
}

/** Per bucket, the hosts' load weighted by `weightOf` their groups' demand (NaN where no weighed host knows the bucket). */
function weightedLoad(
  hostLoad: ReadonlyMap<string, ArrayLike<number>>,
  demandOnHost: ReadonlyMap<string, ReadonlyMap<string, number>>,
  buckets: number,
  weightOf: (byOwner: ReadonlyMap<string, number>) => number,
): Float64Array {
  const sums = new Float64Array(buckets);
  const weights = new Float64Array(buckets);
  for (const [hostId, load] of hostLoad) {
    const byOwner = demandOnHost.get(hostId);
    const w = byOwner ? weightOf(byOwner) : 0;
    if (w === 0) continue;
    for (let b = 0; b < load.length; b++) {
      const v = load[b]!;
      if (Number.isNaN(v)) continue;
      sums[b]! += w * v;
      weights[b]! += w;
    }
  }
  for (let b = 0; b < buckets; b++) sums[b] = weights[b]! > 0 ? sums[b]! / weights[b]! : Number.NaN;
  return sums;
}

/** Every group's positive demand on the host. */
function allDemand(byOwner: ReadonlyMap<string, number>): number {
  let w = 0;
  for (const milli of byOwner.values()) if (milli > 0) w += milli;
  return w;
}

function swing(values: Float64Array): number {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return hi >= lo ? hi - lo : 0;
}

/** Pearson's r over the buckets both know; undefined with fewer than `minBuckets` or a flat series. */
function pearson(a: Float64Array, b: Float64Array, minBuckets: number): number | undefined {
  let n = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]!) || Number.isNaN(b[i]!)) continue;
    n++;
    sa += a[i]!;
    sb += b[i]!;
  }
  if (n < minBuckets) return undefined;
  const ma = sa / n;
  const mb = sb / n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(a[i]!) || Number.isNaN(b[i]!)) continue;
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  return va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : undefined;
}
