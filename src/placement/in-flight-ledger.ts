import type { ClusterView, PodView } from "../model/cluster.js";
import { OverlayMap } from "../model/overlay-map.js";
import type { PlacementContext } from "./decide-node.js";
import { onNodeWith, type InFlightPod } from "./in-flight-view.js";

export { withInFlight, type InFlightPod } from "./in-flight-view.js";

export interface InFlightLedgerOptions {
  /** The informer's pending (unbound, live) pod with that uid; undefined: not known as pending. */
  readonly pendingPod: (uid: string) => PodView | undefined;
  readonly ttlMs?: number;
  /** Entries per node; default 110, the kubelet's default `maxPods`. */
  readonly maxPerNode?: number;
  readonly maxTotal?: number;
  /** Told every entry that ends other than by a newer answer for the same pod. */
  readonly onDrop?: (reason: InFlightDropReason) => void;
  /** Told every answer not recorded because the informer does not know the pod as pending. */
  readonly onRefused?: () => void;
}

/** Why an entry ended: a bounded set (a metric label). */
export type InFlightDropReason = "bound" | "deleted" | "expired" | "node_limit" | "total_limit";
export const IN_FLIGHT_DROP_REASONS: readonly InFlightDropReason[] = ["bound", "deleted", "expired", "node_limit", "total_limit"];

/** Entries older than this are dropped (the pod went elsewhere, or was never bound). */
export const IN_FLIGHT_TTL_MS = 30_000;
/** The kubelet's default `maxPods`. */
export const IN_FLIGHT_MAX_PER_NODE = 110;
export const IN_FLIGHT_MAX_TOTAL = 10_000;

interface Merged {
  readonly view: ClusterView;
  readonly result: ClusterView;
  /** Per node with entries: the view's list it was merged onto, and the merged list. */
  readonly lists: ReadonlyMap<string, { readonly base: readonly PodView[] | undefined; readonly list: readonly PodView[] }>;
}

/**
 * Pods hvx has answered for and not yet seen bound. kube-scheduler binds a pod a moment
 * after the extender's answer; hvx's informer shows the binding only after the API server's
 * write and the watch event (the bind latency). Until then the burst guard, the limit caps
 * and the host spread would not count the pod, so a burst of replicas decided within that
 * window lands as if each were the first. The ledger assumes a pod goes to the node hvx
 * scored best for it (the extender never learns kube-scheduler's final pick before the
 * binding) and counts it there, bound at the time of the answer.
 *
 * The extender port is an input anyone on the network may reach, so the ledger records only
 * what the informer knows: a pod it holds as pending with that uid, counted with the
 * informer's requests (never the request body's). An entry ends when the informer shows the
 * pod bound (on any node) or gone (`settled`), after `ttlMs`, or when a bound is reached
 * (per node and in total, the oldest entry first). Record, settle and expire cost O(1); a
 * merged view costs the number of nodes with entries, never a copy of the fleet's map.
 *
 * Plain data with explicit times: no clock, no I/O.
 */
export class InFlightLedger {
  /** Insertion order is answer order: the oldest entry comes first (expiry and the total bound). */
  private readonly byUid = new Map<string, InFlightPod>();
  private readonly byNode = new Map<string, Map<string, InFlightPod>>();
  /** Nodes whose entries changed since the last merge. */
  private readonly dirty = new Set<string>();
  private merged: Merged | undefined;
  private readonly ttlMs: number;
  private readonly maxPerNode: number;
  private readonly maxTotal: number;

  constructor(private readonly o: InFlightLedgerOptions) {
    this.ttlMs = o.ttlMs ?? IN_FLIGHT_TTL_MS;
    this.maxPerNode = o.maxPerNode ?? IN_FLIGHT_MAX_PER_NODE;
    this.maxTotal = o.maxTotal ?? IN_FLIGHT_MAX_TOTAL;
  }

  /**
   * hvx answered for the pod `uid` at `atMs`, scoring `node` best. Recorded only when the
   * informer knows the pod as pending; a later answer for the same pod replaces the earlier
   * one. Returns whether it was recorded.
   */
  record(uid: string, node: string, atMs: number): boolean {
    const pending = this.o.pendingPod(uid);
    if (pending === undefined) {
      this.o.onRefused?.();
      return false;
    }
    this.remove(uid);
    const onNode = this.byNode.get(node);
    if (onNode && onNode.size >= this.maxPerNode) this.drop(onNode.keys().next().value!, "node_limit");
    if (this.byUid.size >= this.maxTotal) this.drop(this.byUid.keys().next().value!, "total_limit");
    const entry: InFlightPod = { pod: { ...pending, nodeName: node, boundAtMs: atMs } };
    this.byUid.set(uid, entry);
    let list = this.byNode.get(node);
    if (!list) this.byNode.set(node, (list = new Map()));
    list.set(uid, entry);
    this.dirty.add(node);
    return true;
  }

  /** The informer shows the pod bound (on any node) or gone: it is no longer in flight. */
  settled(uid: string, how: "bound" | "deleted"): void {
    if (this.byUid.has(uid)) this.drop(uid, how);
  }

  /** Entries still in flight at `nowMs`. */
  size(nowMs: number): number {
    this.expire(nowMs);
    return this.byUid.size;
  }

  /** Entries still in flight at `nowMs`, oldest first (a copy: for tests and debugging). */
  current(nowMs: number): readonly InFlightPod[] {
    this.expire(nowMs);
    return [...this.byUid.values()];
  }

  /**
   * The view with the in-flight pods added to their assumed nodes (except the pod being
   * scheduled itself: a retry). The same object for every request between two changes of
   * the view or the ledger, and the view itself while nothing is in flight, so per-snapshot
   * caches keep working; a node whose list did not change keeps its list object.
   */
  viewWith(view: ClusterView, nowMs: number, schedulingUid?: string): ClusterView {
    this.expire(nowMs);
    const merged = this.mergedOnto(view);
    const own = schedulingUid === undefined ? undefined : this.byUid.get(schedulingUid);
    if (own === undefined || !view.nodes.has(own.pod.nodeName)) return merged;
    const node = own.pod.nodeName;
    const list = onNodeWith(view.podsByNode.get(node), this.byNode.get(node)!.values(), schedulingUid);
    return { ...merged, podsByNode: new OverlayMap(merged.podsByNode, new Map([[node, list]])) };
  }

  private mergedOnto(view: ClusterView): ClusterView {
    const before = this.merged;
    if (before?.view === view && this.dirty.size === 0) return before.result;
    const lists = new Map<string, { base: readonly PodView[] | undefined; list: readonly PodView[] }>();
    let reused = 0;
    for (const [node, entries] of this.byNode) {
      if (!view.nodes.has(node)) continue;
      const base = view.podsByNode.get(node);
      const kept = before?.lists.get(node);
      if (kept && kept.base === base && !this.dirty.has(node)) {
        lists.set(node, kept);
        reused++;
      } else {
        const list = onNodeWith(base, entries.values());
        if (list !== base) lists.set(node, { base, list: list! });
      }
    }
    this.dirty.clear();
    let result: ClusterView;
    if (before?.view === view && reused === lists.size && lists.size === before.lists.size) result = before.result;
    else if (lists.size === 0) result = view;
    else
      result = {
        ...view,
        podsByNode: new OverlayMap(view.podsByNode, new Map([...lists].map(([n, l]) => [n, l.list]))),
        ...(view.lowestRunningPriority !== undefined
          ? { lowestRunningPriority: this.lowestWith(view.lowestRunningPriority, lists.keys()) }
          : {}),
      };
    this.merged = { view, result, lists };
    return result;
  }

  /** The view's lowest running priority with the in-flight pods on `nodes` counted as running (kube-scheduler counts assumed pods). */
  private lowestWith(lowest: number | null, nodes: Iterable<string>): number | null {
    for (const node of nodes)
      for (const { pod } of this.byNode.get(node)?.values() ?? []) {
        const priority = pod.eviction?.priority ?? 0;
        if (lowest === null || priority < lowest) lowest = priority;
      }
    return lowest;
  }

  /** Drops entries `ttlMs` old, oldest first (answers arrive in time order). */
  private expire(nowMs: number): void {
    for (const [uid, e] of this.byUid) {
      if (nowMs - e.pod.boundAtMs < this.ttlMs) return;
      this.drop(uid, "expired");
    }
  }

  private drop(uid: string, reason: InFlightDropReason): void {
    this.remove(uid);
    this.o.onDrop?.(reason);
  }

  private remove(uid: string): void {
    const entry = this.byUid.get(uid);
    if (!entry) return;
    this.byUid.delete(uid);
    const node = entry.pod.nodeName;
    const onNode = this.byNode.get(node)!;
    onNode.delete(uid);
    if (onNode.size === 0) this.byNode.delete(node);
    this.dirty.add(node);
  }
}

/**
 * After a prioritize answer: records the pod on the node hvx scored best (the first among
 * equals). Nothing without a cluster view (no informer) or without scores.
 */
export function recordAnswer(
  ledger: InFlightLedger,
  scores: ReadonlyArray<{ readonly node: string; readonly score: number }>,
  ctx: PlacementContext,
): void {
  if (ctx.cluster === undefined || scores.length === 0) return;
  let best = scores[0]!;
  for (const s of scores) if (s.score > best.score) best = s;
  ledger.record(ctx.cluster.pod.uid, best.node, ctx.nowMs);
}
