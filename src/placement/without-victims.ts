import type { ClusterView, PodView } from "../model/cluster.js";
import { NO_PENDING, patchedPending, pendingDemand, rememberPending } from "./burst-guard.js";
import type { HostOccupancy } from "./host-occupancy.js";
import { computePodTotals, NO_TOTALS, patchedTotals, podTotals, rememberTotals } from "./pod-totals.js";

/** A cluster view as it would be once kube-scheduler has evicted one node's victims. */
export interface VictimRemoval {
  /** The derived view; the very same object when no victim was found (so every cache still applies). */
  readonly view: ClusterView;
  /** The victims found on the node in the view: their requests, limits and expected demand are gone. */
  readonly removed: readonly PodView[];
  /**
   * Victim UIDs the view does not hold on that node (not yet seen, already gone, or a cache
   * that lags kube-scheduler's). They are not counted in the view, so there is nothing to take
   * away: the node is judged on what hvx knows, never on room it cannot see.
   */
  readonly unknownUids: readonly string[];
}

/**
 * The view without the pods `victimUids` on `nodeName`. Snapshots are shared and never
 * mutated: the result shares everything with `view` except that one node's pod list,
 * which it serves through a one-key overlay (no copy of the fleet-wide map).
 */
export function withoutVictims(view: ClusterView, nodeName: string, victimUids: readonly string[]): VictimRemoval {
  const onNode = view.podsByNode.get(nodeName) ?? [];
  const wanted = new Set(victimUids);
  const removed = onNode.filter((p) => p.uid !== "" && wanted.has(p.uid));
  const found = new Set(removed.map((p) => p.uid));
  const unknownUids = [...wanted].filter((uid) => !found.has(uid));
  if (removed.length === 0) return { view, removed, unknownUids };
  const remaining = onNode.filter((p) => !found.has(p.uid));
  return { view: { ...view, podsByNode: new OneKeyOverlay(view.podsByNode, nodeName, remaining) }, removed, unknownUids };
}

/** The burst guard's inputs for one host, so the host's pending demand can be known by subtraction. */
export interface PendingArgs {
  readonly sampledAtMs: number | undefined;
  readonly settleMs: number;
}

/**
 * The occupancy tables of the base view with one node's victims gone from its host's list.
 * Node-to-VM mapping does not depend on pods, so every table but `podsOnHost(hostId)` is the
 * base's own (computed once per snapshot pair and shared by every request).
 *
 * The reduced host list is assembled from the derived view's node lists (pointer copies, in
 * the base's order), and its pod totals and pending demand are the base's minus the victims'
 * (recorded with `rememberTotals` / `rememberPending`): a candidate costs the size of its
 * victims, not a pass over every pod of its host, which matters when kube-scheduler sends
 * hundreds of candidates on hosts with hundreds of pods.
 */
export function occupancyWithout(
  base: HostOccupancy,
  hostId: string | undefined,
  removal: VictimRemoval,
  pendingArgs?: PendingArgs,
): HostOccupancy {
  if (hostId === undefined || removal.removed.length === 0) return base;
  let reduced: readonly PodView[] | undefined;
  return {
    vmOfNode: base.vmOfNode,
    hostOfNode: base.hostOfNode,
    nodesOnHost: base.nodesOnHost,
    podsOnHost(id) {
      if (id !== hostId) return base.podsOnHost(id);
      if (reduced === undefined) {
        const full = base.podsOnHost(id);
        const list: PodView[] = [];
        for (const n of base.nodesOnHost.get(id) ?? []) for (const p of removal.view.podsByNode.get(n) ?? []) list.push(p);
        const [all, gone] = [podTotals(full), podTotals(removal.removed)];
        rememberTotals(list, patchedTotals(all, gone, NO_TOTALS, new SetWithout(all.uids, gone.uids)) ?? computePodTotals(list));
        if (pendingArgs) {
          const { sampledAtMs, settleMs } = pendingArgs;
          const pending = patchedPending(
            pendingDemand(full, sampledAtMs, settleMs),
            pendingDemand(removal.removed, sampledAtMs, settleMs),
            NO_PENDING,
          );
          if (pending) rememberPending(list, sampledAtMs, settleMs, pending);
        }
        reduced = list;
      }
      return reduced;
    },
  };
}

/** A read-only set: `base` without `gone` (a subset of it). */
class SetWithout<T> implements ReadonlySet<T> {
  constructor(
    private readonly base: ReadonlySet<T>,
    private readonly gone: ReadonlySet<T>,
  ) {}

  get size(): number {
    return this.base.size - this.gone.size;
  }

  has(value: T): boolean {
    return this.base.has(value) && !this.gone.has(value);
  }

  forEach(fn: (value: T, key: T, set: ReadonlySet<T>) => void, thisArg?: unknown): void {
    for (const v of this.values()) fn.call(thisArg, v, v, this);
  }

  *values(): SetIterator<T> {
    for (const v of this.base) if (!this.gone.has(v)) yield v;
  }

  keys(): SetIterator<T> {
    return this.values();
  }

  *entries(): SetIterator<[T, T]> {
    for (const v of this.values()) yield [v, v];
  }

  [Symbol.iterator](): SetIterator<T> {
    return this.values();
  }
}

/** A read-only map equal to `base` except that `key` maps to `value`. */
class OneKeyOverlay<K, V> implements ReadonlyMap<K, V> {
  constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly key: K,
    private readonly value: V,
  ) {}

  get size(): number {
    return this.base.has(this.key) ? this.base.size : this.base.size + 1;
  }

  get(key: K): V | undefined {
    return key === this.key ? this.value : this.base.get(key);
  }

  has(key: K): boolean {
    return key === this.key || this.base.has(key);
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  *entries(): MapIterator<[K, V]> {
    let seen = false;
    for (const [k, v] of this.base.entries()) {
      if (k === this.key) {
        seen = true;
        yield [k, this.value];
      } else yield [k, v];
    }
    if (!seen) yield [this.key, this.value];
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
