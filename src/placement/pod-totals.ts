import type { PodView, WorkloadClass } from "../model/cluster.js";

/** Sums over one immutable list of pods (a node's or a host's), computed once per list. */
export interface PodTotals {
  readonly cpuLimitsMilli: number;
  readonly memoryLimitsBytes: number;
  readonly uids: ReadonlySet<string>;
  readonly replicasByOwner: ReadonlyMap<string, number>;
  /** Expected CPU demand (`PodView.expectedDemand`) of the non-terminal pods, millicores: all, and per workload class. */
  readonly cpuDemandMilli: number;
  readonly cpuDemandMilliByClass: Readonly<Record<WorkloadClass, number>>;
}

const cache = new WeakMap<readonly PodView[], PodTotals>();

/**
 * Totals of a pod list. Snapshot lists never change after creation, so the totals are
 * memoised by list identity: every request against the same snapshot reuses them.
 */
export function podTotals(pods: readonly PodView[]): PodTotals {
  const known = cache.get(pods);
  if (known) return known;
  const totals = computePodTotals(pods);
  cache.set(pods, totals);
  return totals;
}

/** `podTotals` without the memo: for the placement index, which is its own memo. */
export function computePodTotals(pods: readonly PodView[]): PodTotals {
  let cpuLimitsMilli = 0;
  let memoryLimitsBytes = 0;
  const uids = new Set<string>();
  const replicasByOwner = new Map<string, number>();
  let cpuDemandMilli = 0;
  const cpuDemandMilliByClass = { online: 0, batch: 0 };
  for (const p of pods) {
    cpuLimitsMilli += p.limits.cpuMilli;
    memoryLimitsBytes += p.limits.memoryBytes;
    if (p.uid !== "") uids.add(p.uid);
    if (p.ownerKey !== undefined) replicasByOwner.set(p.ownerKey, (replicasByOwner.get(p.ownerKey) ?? 0) + 1);
    if (p.terminal) continue;
    cpuDemandMilli += p.expectedDemand.cpuMilli;
    if (p.workloadClass !== undefined) cpuDemandMilliByClass[p.workloadClass] += p.expectedDemand.cpuMilli;
  }
  return { cpuLimitsMilli, memoryLimitsBytes, uids, replicasByOwner, cpuDemandMilli, cpuDemandMilliByClass };
}

/**
 * Records the totals of a list derived from a snapshot list (e.g. by subtraction, see
 * without-victims.ts), so that `podTotals` answers them without reading every pod again.
 * The caller guarantees that `totals` equals what `podTotals(pods)` would compute.
 */
export function rememberTotals(pods: readonly PodView[], totals: PodTotals): void {
  cache.set(pods, totals);
}

/** Whether `pod` is itself in the list (a re-sent, already bound pod must not count twice). */
export function listed(totals: PodTotals, pod: PodView): boolean {
  return pod.uid !== "" && totals.uids.has(pod.uid);
}
