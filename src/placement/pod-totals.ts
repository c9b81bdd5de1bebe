import type { PodView, WorkloadClass } from "../model/cluster.js";
import { OverlayMap } from "../model/overlay-map.js";
import { OverlaySet } from "../model/overlay-set.js";
import { burstsTogether } from "./bursts-together.js";

/** Sums over one immutable list of pods (a node's or a host's), computed once per list. */
export interface PodTotals {
  readonly cpuLimitsMilli: number;
  readonly memoryLimitsBytes: number;
  readonly uids: ReadonlySet<string>;
  readonly replicasByOwner: ReadonlyMap<string, number>;
  /** Expected CPU demand (`PodView.expectedDemand`) of the non-terminal pods, millicores: all, and per workload class. */
  readonly cpuDemandMilli: number;
  readonly cpuDemandMilliByClass: Readonly<Record<WorkloadClass, number>>;
  /** CPU limits of the non-terminal pods per replica group that bursts together (`burstsTogether`), millicores. */
  readonly burstLimitsMilliByOwner: ReadonlyMap<string, number>;
}

export const NO_TOTALS: PodTotals = computePodTotals([]);

const cache = new WeakMap<readonly PodView[], PodTotals>();

/** Changed keys a patched set or map carries before it is copied flat (`OverlayMap.patched`). */
const MAX_OVERLAID = 32;

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
  const burstLimitsMilliByOwner = new Map<string, number>();
  for (const p of pods) {
    cpuLimitsMilli += p.limits.cpuMilli;
    memoryLimitsBytes += p.limits.memoryBytes;
    if (p.uid !== "") uids.add(p.uid);
    if (p.ownerKey !== undefined) replicasByOwner.set(p.ownerKey, (replicasByOwner.get(p.ownerKey) ?? 0) + 1);
    if (p.terminal) continue;
    cpuDemandMilli += p.expectedDemand.cpuMilli;
    if (p.workloadClass !== undefined) cpuDemandMilliByClass[p.workloadClass] += p.expectedDemand.cpuMilli;
    if (p.ownerKey !== undefined && burstsTogether(p.ownerKey))
      burstLimitsMilliByOwner.set(p.ownerKey, (burstLimitsMilliByOwner.get(p.ownerKey) ?? 0) + p.limits.cpuMilli);
  }
  return { cpuLimitsMilli, memoryLimitsBytes, uids, replicasByOwner, cpuDemandMilli, cpuDemandMilliByClass, burstLimitsMilliByOwner };
}

/**
 * `all`'s totals without `gone`'s (a sub-list of `all`) and with `added`'s: what `computePodTotals`
 * gives for the list so changed, in the size of the change (the uid set and per-owner maps are
 * overlays on `all`'s, `OverlayMap.patched`). Undefined when a sum is not a safe integer, where only
 * the full sum is exact.
 */
export function patchedTotals(
  all: PodTotals,
  gone: PodTotals,
  added: PodTotals,
  /** The uids of the list so changed (`patchedUids`). */
  uids: ReadonlySet<string>,
): PodTotals | undefined {
  const sum = (a: number, b: number, c: number) => {
    const s = a - b + c;
    return Number.isSafeInteger(a) && Number.isSafeInteger(b) && Number.isSafeInteger(c) && Number.isSafeInteger(s) ? s : Number.NaN;
  };
  const replicasByOwner = patchedCounts(all.replicasByOwner, gone.replicasByOwner, added.replicasByOwner, sum);
  const burstLimitsMilliByOwner = patchedCounts(
    all.burstLimitsMilliByOwner,
    gone.burstLimitsMilliByOwner,
    added.burstLimitsMilliByOwner,
    sum,
  );
  if (!replicasByOwner || !burstLimitsMilliByOwner) return undefined;
  const patched: PodTotals = {
    cpuLimitsMilli: sum(all.cpuLimitsMilli, gone.cpuLimitsMilli, added.cpuLimitsMilli),
    memoryLimitsBytes: sum(all.memoryLimitsBytes, gone.memoryLimitsBytes, added.memoryLimitsBytes),
    uids,
    replicasByOwner,
    cpuDemandMilli: sum(all.cpuDemandMilli, gone.cpuDemandMilli, added.cpuDemandMilli),
    cpuDemandMilliByClass: {
      online: sum(all.cpuDemandMilliByClass.online, gone.cpuDemandMilliByClass.online, added.cpuDemandMilliByClass.online),
      batch: sum(all.cpuDemandMilliByClass.batch, gone.cpuDemandMilliByClass.batch, added.cpuDemandMilliByClass.batch),
    },
    burstLimitsMilliByOwner,
  };
  const numbers = [patched.cpuLimitsMilli, patched.memoryLimitsBytes, patched.cpuDemandMilli, patched.cpuDemandMilliByClass.online];
  numbers.push(patched.cpuDemandMilliByClass.batch);
  return numbers.every((n) => !Number.isNaN(n)) ? patched : undefined;
}

/** `all` (the uids of a list) for the list without the pods `gone` and with `added`, which is `list`. */
export function patchedUids(
  all: ReadonlySet<string>,
  gone: readonly PodView[],
  added: readonly PodView[],
  list: readonly PodView[],
): ReadonlySet<string> {
  const addedUids = added.map((p) => p.uid).filter((uid) => uid !== "");
  // Two pods of one list may share a uid (a pod in flight on one node, bound on another): it stays while one is left.
  const removed = gone.map((p) => p.uid).filter((uid) => uid !== "" && !addedUids.includes(uid) && !list.some((q) => q.uid === uid));
  return OverlaySet.patched(all, removed, addedUids, MAX_OVERLAID);
}

/**
 * Per-key sums: `all` - `gone` + `added`; a key whose sum is 0 goes (every reader takes an absent
 * key as 0). Undefined when a changed sum is not a safe integer.
 */
function patchedCounts(
  all: ReadonlyMap<string, number>,
  gone: ReadonlyMap<string, number>,
  added: ReadonlyMap<string, number>,
  sum: (a: number, b: number, c: number) => number,
): ReadonlyMap<string, number> | undefined {
  const changes = new Map<string, number | undefined>();
  for (const key of [...gone.keys(), ...added.keys()]) {
    const value = sum(all.get(key) ?? 0, gone.get(key) ?? 0, added.get(key) ?? 0);
    if (Number.isNaN(value)) return undefined;
    changes.set(key, value === 0 ? undefined : value);
  }
  return OverlayMap.patched(all, changes, MAX_OVERLAID);
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
