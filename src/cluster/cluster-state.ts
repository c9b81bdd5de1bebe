import type { ClusterView, NodeView, PodView } from "../model/cluster.js";

type Labels = Readonly<Record<string, string>>;

/**
 * The informers' views, kept so that `snapshot()` is cheap: an unchanged state returns the same
 * `ClusterView`; after a change only the touched parts are copied (the node map, the namespace
 * map, and the pod lists of nodes whose pods changed). A snapshot is never mutated afterwards.
 * Pods are kept while bound and not terminal.
 */
export class ClusterState {
  private readonly nodes = new Map<string, NodeView>();
  private readonly pods = new Map<string, PodView>();
  private readonly podsOnNode = new Map<string, Map<string, PodView>>();
  private readonly namespaces = new Map<string, Labels>();
  private readonly dirtyNodes = new Set<string>();
  private nodesDirty = true;
  private namespacesDirty = true;
  private last: ClusterView = { nodes: new Map(), podsByNode: new Map(), namespaces: new Map() };

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
    this.nodesDirty = true;
  }

  setNamespace(key: string, labels: Labels | undefined): void {
    if (labels) this.namespaces.set(key, labels);
    else this.namespaces.delete(key);
    this.namespacesDirty = true;
  }

  /** `view` undefined, unbound or terminal: the pod leaves its node's list. */
  setPod(key: string, view: PodView | undefined): void {
    const previous = this.pods.get(key);
    if (previous?.nodeName !== undefined) {
      const onNode = this.podsOnNode.get(previous.nodeName);
      onNode?.delete(key);
      if (onNode?.size === 0) this.podsOnNode.delete(previous.nodeName);
      this.dirtyNodes.add(previous.nodeName);
    }
    if (view?.nodeName !== undefined && !view.terminal) {
      this.pods.set(key, view);
      let onNode = this.podsOnNode.get(view.nodeName);
      if (!onNode) this.podsOnNode.set(view.nodeName, (onNode = new Map()));
      onNode.set(key, view);
      this.dirtyNodes.add(view.nodeName);
    } else {
      this.pods.delete(key);
    }
  }

  snapshot(meta: { syncedAtMs?: number; lastEventMs?: number }): ClusterView {
    const changed = this.nodesDirty || this.namespacesDirty || this.dirtyNodes.size > 0;
    if (!changed && this.last.syncedAtMs === meta.syncedAtMs && this.last.lastEventMs === meta.lastEventMs) return this.last;
    let podsByNode = this.last.podsByNode as Map<string, readonly PodView[]>;
    if (this.dirtyNodes.size > 0) {
      podsByNode = new Map(podsByNode);
      for (const node of this.dirtyNodes) {
        const pods = this.podsOnNode.get(node);
        if (pods && pods.size > 0) podsByNode.set(node, [...pods.values()]);
        else podsByNode.delete(node);
      }
      this.dirtyNodes.clear();
    }
    const view: { -readonly [K in keyof ClusterView]: ClusterView[K] } = {
      nodes: this.nodesDirty ? new Map(this.nodes) : this.last.nodes,
      podsByNode,
      namespaces: this.namespacesDirty ? new Map(this.namespaces) : this.last.namespaces,
    };
    if (meta.syncedAtMs !== undefined) view.syncedAtMs = meta.syncedAtMs;
    if (meta.lastEventMs !== undefined) view.lastEventMs = meta.lastEventMs;
    this.nodesDirty = false;
    this.namespacesDirty = false;
    this.last = view;
    return view;
  }
}
