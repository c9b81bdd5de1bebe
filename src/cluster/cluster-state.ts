import type { ClusterView, NodeView, PodView } from "../model/cluster.js";
import { OverlayMap } from "../model/overlay-map.js";

type Labels = Readonly<Record<string, string>>;

/**
 * The informers' views, kept so that `snapshot()` is cheap: an unchanged state returns the same
 * `ClusterView`; after a change only the touched parts are copied (the node map, the namespace
 * map, and the pod lists of nodes whose pods changed, served as an overlay on the previous
 * snapshot's map: a binding costs its node, not the fleet). A snapshot is never mutated
 * afterwards. Pods are kept while bound and not terminal; pending pods (unbound, not
 * terminal) are kept apart, by uid, for the in-flight ledger (`pendingPod`), and
 * `onPodSettled` is told when one leaves that state. The DaemonSets that control held bound
 * pods are counted, so `daemonSets` is copied only when one appears or goes.
 */
export class ClusterState {
  private readonly nodes = new Map<string, NodeView>();
  private readonly pods = new Map<string, PodView>();
  private readonly pendingByKey = new Map<string, PodView>();
  private readonly pendingByUid = new Map<string, PodView>();
  private readonly podsOnNode = new Map<string, Map<string, PodView>>();
  private readonly namespaces = new Map<string, Labels>();
  /** Nodes whose pod list changed since the last snapshot. */
  private readonly dirtyNodes = new Set<string>();
  /** Nodes whose NodeView changed since the last snapshot. */
  private readonly changedNodes = new Set<string>();
  private namespacesDirty = true;
  /** `namespace/uid` of DaemonSet controllers -> how many held bound pods name them. */
  private readonly daemonSetPods = new Map<string, number>();
  private daemonSetsDirty = true;
  /** `spec.priority` of held bound pods -> how many: the lowest is read per snapshot from a handful of keys. */
  private readonly priorityCounts = new Map<number, number>();
  private last: ClusterView = { nodes: new Map(), podsByNode: new Map(), namespaces: new Map() };

  constructor(
    /** Told the uid of a pending pod the informer now shows bound (on any node) or gone (deleted, terminal, replaced). */
    private readonly onPodSettled?: (uid: string, how: "bound" | "deleted") => void,
  ) {}

  /** The pending pod with that uid (unbound, not terminal), as the informer last saw it. */
  pendingPod(uid: string): PodView | undefined {
    return this.pendingByUid.get(uid);
  }

  /** Every pending pod the informer holds. */
  pendingPods(): Iterable<PodView> {
    return this.pendingByUid.values();
  }

  counts(): { nodes: number; pods: number; namespaces: number } {
    return { nodes: this.nodes.size, pods: this.pods.size, namespaces: this.namespaces.size };
  }

  /**
   * What is known of a pod's binding: undefined when the pod is not held, else its binding
   * time (undefined for a pod that was already bound when first listed). An update or a relist
   * keeps it, so "first seen bound" never moves.
   */
  bindingOf(podKey: string): { readonly boundAtMs: number | undefined } | undefined {
    const pod = this.pods.get(podKey);
    return pod ? { boundAtMs: pod.boundAtMs } : undefined;
  }

  setNode(key: string, view: NodeView | undefined): void {
    if (view) this.nodes.set(key, view);
    else this.nodes.delete(key);
    this.changedNodes.add(key);
  }

  setNamespace(key: string, labels: Labels | undefined): void {
    if (labels) this.namespaces.set(key, labels);
    else this.namespaces.delete(key);
    this.namespacesDirty = true;
  }

  /** `view` undefined, unbound or terminal: the pod leaves its node's list. */
  setPod(key: string, view: PodView | undefined): void {
    this.setPending(key, view);
    const previous = this.pods.get(key);
    this.countDaemonSetPod(previous, -1);
    this.countPriority(previous, -1);
    if (previous?.nodeName !== undefined) {
      const onNode = this.podsOnNode.get(previous.nodeName);
      onNode?.delete(key);
      if (onNode?.size === 0) this.podsOnNode.delete(previous.nodeName);
      this.dirtyNodes.add(previous.nodeName);
    }
    if (view?.nodeName !== undefined && !view.terminal) {
      this.pods.set(key, view);
      this.countDaemonSetPod(view, 1);
      this.countPriority(view, 1);
      let onNode = this.podsOnNode.get(view.nodeName);
      if (!onNode) this.podsOnNode.set(view.nodeName, (onNode = new Map()));
      onNode.set(key, view);
      this.dirtyNodes.add(view.nodeName);
    } else {
      this.pods.delete(key);
    }
  }

  /** The set changes only when a DaemonSet's first pod arrives or its last one leaves. */
  private countDaemonSetPod(pod: PodView | undefined, delta: 1 | -1): void {
    const uid = pod?.eviction?.daemonSetUid;
    if (uid === undefined) return;
    const key = `${pod!.namespace}/${uid}`;
    const count = (this.daemonSetPods.get(key) ?? 0) + delta;
    if (count > 0) this.daemonSetPods.set(key, count);
    else this.daemonSetPods.delete(key);
    if (count === 0 || (count === 1 && delta === 1)) this.daemonSetsDirty = true;
  }

  private countPriority(pod: PodView | undefined, delta: 1 | -1): void {
    if (pod === undefined) return;
    const priority = pod.eviction?.priority ?? 0;
    const count = (this.priorityCounts.get(priority) ?? 0) + delta;
    if (count > 0) this.priorityCounts.set(priority, count);
    else this.priorityCounts.delete(priority);
  }

  private lowestPriority(): number | null {
    let lowest: number | null = null;
    for (const priority of this.priorityCounts.keys()) if (lowest === null || priority < lowest) lowest = priority;
    return lowest;
  }

  private setPending(key: string, view: PodView | undefined): void {
    const before = this.pendingByKey.get(key);
    const pending = view !== undefined && view.nodeName === undefined && !view.terminal && view.uid !== "";
    if (before && !(pending && before.uid === view.uid)) {
      this.pendingByKey.delete(key);
      this.pendingByUid.delete(before.uid);
      const bound = view?.uid === before.uid && view.nodeName !== undefined && !view.terminal;
      this.onPodSettled?.(before.uid, bound ? "bound" : "deleted");
    }
    if (pending) {
      this.pendingByKey.set(key, view);
      this.pendingByUid.set(view.uid, view);
    }
  }

  snapshot(meta: { syncedAtMs?: number; lastEventMs?: number }): ClusterView {
    const changed = this.changedNodes.size > 0 || this.namespacesDirty || this.dirtyNodes.size > 0 || this.daemonSetsDirty;
    if (!changed && this.last.syncedAtMs === meta.syncedAtMs && this.last.lastEventMs === meta.lastEventMs) return this.last;
    const podsByNode = patched(this.last.podsByNode, this.dirtyNodes, (node) => {
      const pods = this.podsOnNode.get(node);
      return pods && pods.size > 0 ? [...pods.values()] : undefined;
    });
    const nodes = patched(this.last.nodes, this.changedNodes, (node) => this.nodes.get(node));
    const view: { -readonly [K in keyof ClusterView]: ClusterView[K] } = {
      nodes,
      podsByNode,
      namespaces: this.namespacesDirty ? new Map(this.namespaces) : this.last.namespaces,
      daemonSets: this.daemonSetsDirty || !this.last.daemonSets ? new Set(this.daemonSetPods.keys()) : this.last.daemonSets,
      lowestRunningPriority: this.lowestPriority(),
    };
    if (meta.syncedAtMs !== undefined) view.syncedAtMs = meta.syncedAtMs;
    if (meta.lastEventMs !== undefined) view.lastEventMs = meta.lastEventMs;
    this.namespacesDirty = false;
    this.daemonSetsDirty = false;
    this.last = view;
    return view;
  }
}

/**
 * `previous` with the `changed` keys read again from `current` (undefined: gone), and `changed`
 * emptied. An overlay of up to 2 sqrt(n) changed keys, then one flat copy: about 3 sqrt(n)
 * per change instead of n (a binding costs its node, not the fleet).
 */
function patched<V>(
  previous: ReadonlyMap<string, V>,
  changed: Set<string>,
  current: (key: string) => V | undefined,
): ReadonlyMap<string, V> {
  if (changed.size === 0) return previous;
  const changes = new Map<string, V | undefined>();
  for (const key of changed) changes.set(key, current(key));
  changed.clear();
  return OverlayMap.patched(previous, changes, Math.max(16, Math.ceil(2 * Math.sqrt(previous.size))));
}
