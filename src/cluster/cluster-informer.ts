import { CoreV1Api, type KubeConfig, type KubernetesListObject, type KubernetesObject } from "@kubernetes/client-node";
import type { ClusterSource, ClusterView, NodeView, PodView, ResourceAmounts } from "../model/cluster.js";
import type { Logger } from "../observability/logger.js";
import type { ClusterMetrics } from "./cluster-metrics.js";
import { ResourceInformer, type ResourceInformerStatus } from "./resource-informer.js";
import { toNodeView, type NodeWire } from "./to-node-view.js";
import { toPodView, type PodWire } from "./to-pod-view.js";

export interface ClusterInformerOptions {
  readonly kubeConfig: KubeConfig;
  /** Burst-guard defaults for pods that declare nothing (`burstGuard.defaultCpu/defaultMemory`, parsed). */
  readonly defaults: ResourceAmounts;
  /** Server-side watch timeout; each watch is then renewed from its last resourceVersion. Default 300. */
  readonly resyncSeconds?: number;
  readonly log: Logger;
  readonly metrics?: ClusterMetrics;
  readonly now?: () => number;
  /** `start()` rejects when not synced by then; the informers keep retrying. Default 60 000. */
  readonly syncTimeoutMs?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Items per list page. Default 500 (client-go's). */
  readonly pageSize?: number;
}

export interface ClusterInformerStatus {
  readonly synced: boolean;
  readonly syncedAtMs?: number;
  /** Milliseconds since any informer last heard from the API server; undefined before. */
  readonly lastEventAgeMs?: number;
  readonly errors: number;
  readonly reconnects: number;
  readonly relists: number;
  readonly counts: { readonly nodes: number; readonly pods: number; readonly namespaces: number };
  readonly resources: readonly ResourceInformerStatus[];
}

export class ClusterSyncError extends Error {
  override name = "ClusterSyncError";
}

type Labels = Readonly<Record<string, string>>;

/**
 * Nodes, Pods (all namespaces) and Namespaces from the API server, as a `ClusterSource`.
 * Holds `NodeView`/`PodView` only; pods are kept while bound and not terminal. `latest()` is
 * cheap: the snapshot is rebuilt on the first call after a change (only changed nodes' pod lists).
 */
export class ClusterInformer implements ClusterSource {
  private readonly informers: [ResourceInformer<NodeView>, ResourceInformer<PodView>, ResourceInformer<Labels>];
  private readonly nodes = new Map<string, NodeView>();
  private readonly pods = new Map<string, PodView>();
  private readonly podsOnNode = new Map<string, Map<string, PodView>>();
  private readonly namespaces = new Map<string, Labels>();
  private readonly dirtyNodes = new Set<string>();
  private nodesDirty = true;
  private namespacesDirty = true;
  private snapshot: ClusterView = { nodes: new Map(), podsByNode: new Map(), namespaces: new Map() };
  private syncedAtMs: number | undefined;
  private readonly now: () => number;

  constructor(private readonly o: ClusterInformerOptions) {
    this.now = o.now ?? Date.now;
    const api = o.kubeConfig.makeApiClient(CoreV1Api);
    const limit = o.pageSize ?? 500;
    const watchQuery = `?allowWatchBookmarks=true&timeoutSeconds=${Math.max(1, Math.round(o.resyncSeconds ?? 300))}`;
    const common = { kubeConfig: o.kubeConfig, log: o.log, metrics: o.metrics, now: this.now, backoff: o.backoff ?? { initialMs: 500, maxMs: 30_000 } };
    const page = <T>(fn: (p: { limit: number; _continue?: string }) => Promise<T>) => (token: string | undefined) =>
      fn(token === undefined ? { limit } : { limit, _continue: token }) as unknown as Promise<KubernetesListObject<KubernetesObject>>;
    const warn = (problems: string[]): void => {
      if (problems.length > 0) o.log.warn({ problems }, "unreadable quantities counted as absent");
    };
    this.informers = [
      new ResourceInformer<NodeView>({
        ...common,
        resource: "nodes",
        watchPath: `/api/v1/nodes${watchQuery}`,
        listPage: page((p) => api.listNode(p)),
        convert: (obj) => {
          const problems: string[] = [];
          const view = toNodeView(obj as NodeWire, problems);
          warn(problems);
          return view;
        },
        onChange: (key, view) => this.setNode(key, view),
      }),
      new ResourceInformer<PodView>({
        ...common,
        resource: "pods",
        watchPath: `/api/v1/pods${watchQuery}`,
        listPage: page((p) => api.listPodForAllNamespaces(p)),
        convert: (obj, key) => {
          const problems: string[] = [];
          const view = toPodView(obj as PodWire, o.defaults, this.pods.get(key)?.boundAtMs ?? this.now(), problems);
          warn(problems);
          return view.nodeName !== undefined && !view.terminal ? view : undefined;
        },
        onChange: (key, view) => this.setPod(key, view),
      }),
      new ResourceInformer<Labels>({
        ...common,
        resource: "namespaces",
        watchPath: `/api/v1/namespaces${watchQuery}`,
        listPage: page((p) => api.listNamespace(p)),
        convert: (obj) => ({ ...obj.metadata?.labels }),
        onChange: (key, labels) => {
          if (labels) this.namespaces.set(key, labels);
          else this.namespaces.delete(key);
          this.namespacesDirty = true;
        },
      }),
    ];
    o.metrics?.bindCacheAge(() => {
      const age = this.status().lastEventAgeMs;
      return age === undefined ? undefined : age / 1000;
    });
  }

  /** Starts the three informers; resolves once all listed, rejects after `syncTimeoutMs` (they keep retrying). */
  async start(): Promise<void> {
    for (const i of this.informers) i.start();
    let timer: NodeJS.Timeout | undefined;
    const timeoutMs = this.o.syncTimeoutMs ?? 60_000;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const missing = this.informers.map((i) => i.status()).filter((s) => !s.synced);
        const detail = missing.map((s) => `${s.resource}${s.lastError ? ` (${s.lastError})` : ""}`).join(", ");
        reject(new ClusterSyncError(`Kubernetes informers not synced after ${timeoutMs} ms: ${detail}`));
      }, timeoutMs);
    });
    try {
      await Promise.race([Promise.all(this.informers.map((i) => i.synced)), timeout]);
      this.syncedAtMs = this.now();
      this.o.metrics?.synced.set(1);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.stop()));
  }

  latest(): ClusterView {
    const lastHeard = this.lastHeardMs();
    const changed = this.nodesDirty || this.namespacesDirty || this.dirtyNodes.size > 0;
    if (!changed && this.snapshot.syncedAtMs === this.syncedAtMs && this.snapshot.lastEventMs === lastHeard) return this.snapshot;
    let podsByNode = this.snapshot.podsByNode as Map<string, readonly PodView[]>;
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
      nodes: this.nodesDirty ? new Map(this.nodes) : this.snapshot.nodes,
      podsByNode,
      namespaces: this.namespacesDirty ? new Map(this.namespaces) : this.snapshot.namespaces,
    };
    if (this.syncedAtMs !== undefined) view.syncedAtMs = this.syncedAtMs;
    if (lastHeard !== undefined) view.lastEventMs = lastHeard;
    this.nodesDirty = false;
    this.namespacesDirty = false;
    this.snapshot = view;
    this.o.metrics?.objects.set({ resource: "nodes" }, this.nodes.size);
    this.o.metrics?.objects.set({ resource: "pods" }, this.pods.size);
    this.o.metrics?.objects.set({ resource: "namespaces" }, this.namespaces.size);
    return view;
  }

  status(): ClusterInformerStatus {
    const resources = this.informers.map((i) => i.status());
    const lastHeard = this.lastHeardMs();
    const out: { -readonly [K in keyof ClusterInformerStatus]: ClusterInformerStatus[K] } = {
      synced: resources.every((r) => r.synced),
      errors: resources.reduce((a, r) => a + r.errors, 0),
      reconnects: resources.reduce((a, r) => a + r.reconnects, 0),
      relists: resources.reduce((a, r) => a + r.relists, 0),
      counts: { nodes: this.nodes.size, pods: this.pods.size, namespaces: this.namespaces.size },
      resources,
    };
    if (this.syncedAtMs !== undefined) out.syncedAtMs = this.syncedAtMs;
    if (lastHeard !== undefined) out.lastEventAgeMs = Math.max(0, this.now() - lastHeard);
    return out;
  }

  /** The oldest of the informers' last contact: the view is as stale as its stalest part. */
  private lastHeardMs(): number | undefined {
    let oldest: number | undefined;
    for (const i of this.informers) {
      const heard = i.status().lastHeardMs;
      if (heard === undefined) return undefined;
      oldest = oldest === undefined ? heard : Math.min(oldest, heard);
    }
    return oldest;
  }

  private setNode(key: string, view: NodeView | undefined): void {
    if (view) this.nodes.set(key, view);
    else this.nodes.delete(key);
    this.nodesDirty = true;
  }

  private setPod(key: string, view: PodView | undefined): void {
    const previous = this.pods.get(key);
    if (previous?.nodeName !== undefined) {
      this.podsOnNode.get(previous.nodeName)?.delete(key);
      this.dirtyNodes.add(previous.nodeName);
    }
    if (view?.nodeName !== undefined) {
      this.pods.set(key, view);
      let onNode = this.podsOnNode.get(view.nodeName);
      if (!onNode) this.podsOnNode.set(view.nodeName, (onNode = new Map()));
      onNode.set(key, view);
      this.dirtyNodes.add(view.nodeName);
    } else {
      this.pods.delete(key);
    }
  }
}
