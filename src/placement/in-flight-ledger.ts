import type { ClusterView, PodView } from "../model/cluster.js";
import type { PlacementContext } from "./decide-node.js";

/**
 * Pods hvx has answered for and not yet seen bound. kube-scheduler binds a pod a moment
 * after the extender's answer; hvx's informer shows the binding only after the API server's
 * write and the watch event (the bind latency). Until then the burst guard, the limit caps
 * and the host spread would not count the pod, so a burst of replicas decided within that
 * window lands as if each were the first. The ledger assumes a pod goes to the node hvx
 * scored best for it (the extender never learns kube-scheduler's final pick before the
 * binding) and counts it there, bound at the time of the answer, until the cluster view
 * shows it (by uid, on that node) or the entry is `ttlMs` old.
 *
 * Plain data with explicit times: no clock, no I/O.
 */
export interface InFlightPod {
  /** The pod as the burst guard and the caps should count it: `nodeName` the assumed node, `boundAtMs` the answer's time. */
  readonly pod: PodView & { readonly nodeName: string; readonly boundAtMs: number };
}

/** Entries older than this are dropped (the pod went elsewhere, or was never bound). */
export const IN_FLIGHT_TTL_MS = 30_000;

export class InFlightLedger {
  private entries: InFlightPod[] = [];
  /** The last merged view, reused while neither the view nor the entries change (so is the placement index built on it). */
  private merged: { view: ClusterView; entries: readonly InFlightPod[]; result: ClusterView } | undefined;

  constructor(private readonly ttlMs = IN_FLIGHT_TTL_MS) {}

  /** hvx answered for `pod` at `atMs`, scoring `node` best. A later answer for the same uid replaces the earlier one. */
  record(pod: PodView, node: string, atMs: number): void {
    this.entries = this.entries.filter((e) => e.pod.uid !== pod.uid);
    this.entries.push({ pod: { ...pod, nodeName: node, boundAtMs: atMs } });
  }

  /** The informer saw the pod (bound, deleted or terminal): it is no longer in flight. */
  seen(uid: string): void {
    if (this.entries.length > 0) this.entries = this.entries.filter((e) => e.pod.uid !== uid);
  }

  /**
   * `withInFlight(view, current(nowMs), schedulingUid)`, the same object for every request
   * between two changes of the view or the ledger (unless the pod being scheduled is itself in
   * flight, a retry: then its own merge).
   */
  viewWith(view: ClusterView, nowMs: number, schedulingUid?: string): ClusterView {
    const entries = this.current(nowMs);
    if (schedulingUid !== undefined && entries.some((e) => e.pod.uid === schedulingUid)) return withInFlight(view, entries, schedulingUid);
    if (this.merged?.view !== view || this.merged.entries !== entries) {
      const before = this.merged?.view === view ? this.merged : undefined;
      this.merged = { view, entries, result: withInFlight(view, entries, undefined, before) };
    }
    return this.merged.result;
  }

  /** Entries still in flight at `nowMs` (expired ones are dropped). */
  current(nowMs: number): readonly InFlightPod[] {
    if (this.entries.some((e) => nowMs - e.pod.boundAtMs >= this.ttlMs))
      this.entries = this.entries.filter((e) => nowMs - e.pod.boundAtMs < this.ttlMs);
    return this.entries;
  }
}

/**
 * The cluster view with the in-flight pods added to their assumed nodes, except a pod the
 * view already shows on that node, and except the pod being scheduled itself. The same
 * object when nothing is added, so per-snapshot caches keep working.
 */
export function withInFlight(
  view: ClusterView,
  inFlight: readonly InFlightPod[],
  schedulingUid?: string,
  /** An earlier merge of the same view (no scheduling uid): a node with the same in-flight pods keeps its merged list object. */
  before?: { readonly entries: readonly InFlightPod[]; readonly result: ClusterView },
): ClusterView {
  let podsByNode: Map<string, readonly PodView[]> | undefined;
  const same = before && schedulingUid === undefined ? sameNodes(before.entries, inFlight) : undefined;
  for (const { pod } of inFlight) {
    if (pod.uid === schedulingUid || !view.nodes.has(pod.nodeName)) continue;
    if (same?.has(pod.nodeName)) {
      podsByNode ??= new Map(view.podsByNode);
      podsByNode.set(pod.nodeName, before!.result.podsByNode.get(pod.nodeName)!);
      continue;
    }
    const onNode = podsByNode?.get(pod.nodeName) ?? view.podsByNode.get(pod.nodeName) ?? [];
    if (onNode.some((p) => p.uid === pod.uid)) continue;
    podsByNode ??= new Map(view.podsByNode);
    podsByNode.set(pod.nodeName, [...onNode, pod]);
  }
  return podsByNode === undefined ? view : { ...view, podsByNode };
}

/** The nodes whose in-flight entries are the same objects in the same order in both lists. */
function sameNodes(a: readonly InFlightPod[], b: readonly InFlightPod[]): Set<string> {
  const byNode = (list: readonly InFlightPod[]) => {
    const m = new Map<string, InFlightPod[]>();
    for (const e of list) {
      let l = m.get(e.pod.nodeName);
      if (!l) m.set(e.pod.nodeName, (l = []));
      l.push(e);
    }
    return m;
  };
  const before = byNode(a);
  const same = new Set<string>();
  for (const [node, list] of byNode(b)) {
    const old = before.get(node);
    if (old && old.length === list.length && old.every((e, i) => e === list[i])) same.add(node);
  }
  return same;
}

/**
 * After a prioritize answer: records the pod on the node hvx scored best (the first among
 * equals). Nothing without a cluster view (no pod to count) or without scores.
 */
export function recordAnswer(
  ledger: InFlightLedger,
  scores: ReadonlyArray<{ readonly node: string; readonly score: number }>,
  ctx: PlacementContext,
): void {
  if (ctx.cluster === undefined || scores.length === 0) return;
  let best = scores[0]!;
  for (const s of scores) if (s.score > best.score) best = s;
  ledger.record(ctx.cluster.pod, best.node, ctx.nowMs);
}
