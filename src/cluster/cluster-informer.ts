import type { CoreV1Api, KubeConfig, KubernetesListObject, KubernetesObject } from "@kubernetes/client-node";
import type { ClusterSource, ClusterView, NodeView, PodView, ResourceAmounts } from "../model/cluster.js";
import type { Logger } from "../observability/logger.js";
import type { ClusterMetrics } from "./cluster-metrics.js";
import { ClusterState } from "./cluster-state.js";
import { ResourceInformer, type ResourceInformerStatus } from "./resource-informer.js";
import { toNodeView, type NodeWire } from "./to-node-view.js";
import type { WorkloadClassification } from "../placement/workload-class.js";
import { toPodView, type PodWire } from "./to-pod-view.js";

export interface ClusterInformerOptions {
  /** The API server the watches go to. */
  readonly kubeConfig: KubeConfig;
  /**
   * Lists (each page): a client whose calls give up after `kubernetes.requestTimeoutSeconds`
   * (`makeTimedApiClient(kubeConfig, CoreV1Api, timeoutMs)`).
   */
  readonly listApi: CoreV1Api;
  /** Burst-guard defaults for pods that declare nothing (`burstGuard.defaultCpu/defaultMemory`, parsed). */
  readonly defaults: ResourceAmounts;
  /** How pods are sorted into workload classes (`workloadClasses.*`); absent: the defaults. */
  readonly classes?: WorkloadClassification;
  /**
   * Server-side watch timeout: each watch asks for a random whole number of seconds between this
   * and twice this (client-go's reflector: 5 to 10 min) and is then renewed from its last resourceVersion. Default 300.
   */
  readonly resyncSeconds?: number;
  readonly log: Logger;
  readonly metrics?: ClusterMetrics;
  readonly now?: () => number;
  /** `start()` rejects when not synced by then; the informers keep retrying. Default 60 000. */
  readonly syncTimeoutMs?: number;
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Items per list page. Default 500 (client-go's). */
  readonly pageSize?: number;
  /**
   * A watch silent (no event, no bookmark) this long makes the watchdog probe the API server; it is
   * restarted when the probe fails, or when it outlives its timeout by this long (`kubernetes.watchIdleSeconds`). Default 120.
   */
  readonly watchIdleSeconds?: number;
  /** Told the uid of a pending pod once the informer shows it bound (on any node) or gone (the in-flight ledger's feed). */
  readonly onPodSettled?: (uid: string, how: "bound" | "deleted") => void;
}

/**
 * kube-apiserver's watch cache may send a bookmark about once a minute, but sends none on a
 * quiet watch; a watch silent for twice that makes the watchdog probe the API server
 * (`kubernetes.watchIdleSeconds` default), and only a failed probe ends it.
 */
export const BOOKMARK_PERIOD_SECONDS = 60;
export const DEFAULT_WATCH_IDLE_SECONDS = 2 * BOOKMARK_PERIOD_SECONDS;

export interface ClusterInformerStatus {
  readonly synced: boolean;
  readonly syncedAtMs?: number;
  /** Milliseconds since any informer last heard from the API server; undefined before. */
  readonly lastEventAgeMs?: number;
  readonly errors: number;
  readonly reconnects: number;
  readonly relists: number;
  /** Watches restarted by the watchdog (silent while the API server did not answer, or open past their timeout). */
  readonly idleRestarts: number;
  readonly counts: { readonly nodes: number; readonly pods: number; readonly namespaces: number };
  readonly resources: readonly ResourceInformerStatus[];
}

export class ClusterSyncError extends Error {
  override name = "ClusterSyncError";
}

type Labels = Readonly<Record<string, string>>;

/**
 * Only non-terminal pods travel (kube-scheduler's own selector): the API server filters them
 * (a pod turning Succeeded or Failed arrives as DELETED), which spares memory in clusters with
 * many completed pods. Pending pods travel too: the in-flight ledger records only a pod the
 * informer knows as pending, and a pod's binding then arrives as a MODIFIED event, in order.
 */
export const LIVE_PODS = "status.phase!=Succeeded,status.phase!=Failed";

/**
 * Nodes, Pods (all namespaces) and Namespaces from the API server, as a `ClusterSource`.
 * Holds `NodeView`/`PodView` only (`ClusterState`); pods are kept while not terminal, the
 * bound ones in the view, the pending ones behind `pendingPod`.
 * `latest()` is cheap: the snapshot is rebuilt on the first call after a change, and only in part.
 */
export class ClusterInformer implements ClusterSource {
  private readonly informers: [ResourceInformer<NodeView>, ResourceInformer<PodView>, ResourceInformer<Labels>];
  private readonly state: ClusterState;
  private syncedAtMs: number | undefined;
  private syncTimer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly o: ClusterInformerOptions) {
    this.now = o.now ?? Date.now;
    this.state = new ClusterState(o.onPodSettled);
    const api = o.listApi;
    const limit = o.pageSize ?? 500;
    const watchQuery = "?allowWatchBookmarks=true";
    const resyncSeconds = Math.max(1, Math.round(o.resyncSeconds ?? 300));
    const common = {
      kubeConfig: o.kubeConfig,
      log: o.log,
      metrics: o.metrics,
      now: this.now,
      backoff: o.backoff ?? { initialMs: 500, maxMs: 30_000 },
      watchIdleMs: (o.watchIdleSeconds ?? DEFAULT_WATCH_IDLE_SECONDS) * 1000,
      watchTimeoutSeconds: () => resyncSeconds + Math.floor(Math.random() * (resyncSeconds + 1)),
      probe: () => api.getAPIResources(),
    };
    type PageParams = { limit: number; _continue?: string; fieldSelector?: string };
    const page =
      <T>(fn: (p: PageParams) => Promise<T>) =>
      (token: string | undefined, fieldSelector: string | undefined) => {
        const params: PageParams = { limit };
        if (token !== undefined) params._continue = token;
        if (fieldSelector !== undefined) params.fieldSelector = fieldSelector;
        return fn(params) as unknown as Promise<KubernetesListObject<KubernetesObject>>;
      };
    // Each object's problems are logged once, not on every update or relist (bounded memory).
    const reported = new Map<string, string>();
    const warn = (key: string, problems: string[]): void => {
      const text = problems.join("; ");
      if (text === "") {
        reported.delete(key);
        return;
      }
      if (reported.get(key) === text) return;
      if (reported.size >= 10_000) reported.clear();
      reported.set(key, text);
      o.log.warn({ object: key, problems }, "unreadable quantities counted as absent");
    };
    this.informers = [
      new ResourceInformer<NodeView>({
        ...common,
        resource: "nodes",
        watchPath: `/api/v1/nodes${watchQuery}`,
        listPage: page((p) => api.listNode(p)),
        convert: (obj, key) => {
          const problems: string[] = [];
          const view = toNodeView(obj as NodeWire, problems);
          warn(`node ${key}`, problems);
          return view;
        },
        onChange: (key, view) => this.state.setNode(key, view),
      }),
      new ResourceInformer<PodView>({
        ...common,
        resource: "pods",
        watchPath: `/api/v1/pods${watchQuery}`,
        fieldSelector: LIVE_PODS,
        listPage: page((p) => api.listPodForAllNamespaces(p)),
        convert: (obj, key, source) => {
          const problems: string[] = [];
          // One clock (hvx's): a pod is newly bound when a watch event first shows it bound, at
          // that local time. Pods a list finds bound (start-up, relist) are not new bindings.
          const held = this.state.bindingOf(key);
          const firstSeenBoundMs = held ? held.boundAtMs : source === "watch" ? this.now() : undefined;
          const view = toPodView(obj as PodWire, o.defaults, firstSeenBoundMs, problems, o.classes);
          warn(`pod ${key}`, problems);
          return view.terminal ? undefined : view;
        },
        onChange: (key, view) => this.state.setPod(key, view),
      }),
      new ResourceInformer<Labels>({
        ...common,
        resource: "namespaces",
        watchPath: `/api/v1/namespaces${watchQuery}`,
        listPage: page((p) => api.listNamespace(p)),
        convert: (obj) => ({ ...obj.metadata?.labels }),
        onChange: (key, labels) => this.state.setNamespace(key, labels),
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
    const timeoutMs = this.o.syncTimeoutMs ?? 60_000;
    const timeout = new Promise<never>((_, reject) => {
      this.syncTimer = setTimeout(() => {
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
      clearTimeout(this.syncTimer);
    }
  }

  /** Stops the informers; a `start()` still waiting for the first sync then never settles. */
  async stop(): Promise<void> {
    clearTimeout(this.syncTimer);
    await Promise.all(this.informers.map((i) => i.stop()));
  }

  latest(): ClusterView {
    const meta: { syncedAtMs?: number; lastEventMs?: number } = {};
    if (this.syncedAtMs !== undefined) meta.syncedAtMs = this.syncedAtMs;
    const lastHeard = this.lastHeardMs();
    if (lastHeard !== undefined) meta.lastEventMs = lastHeard;
    const view = this.state.snapshot(meta);
    const counts = this.state.counts();
    for (const resource of ["nodes", "pods", "namespaces"] as const) this.o.metrics?.objects.set({ resource }, counts[resource]);
    return view;
  }

  /** The pending pod (unbound, not terminal) with that uid; undefined when the informer does not hold one. */
  pendingPod(uid: string): PodView | undefined {
    return this.state.pendingPod(uid);
  }

  /** Every pending pod, as the informer last saw it. */
  pendingPods(): Iterable<PodView> {
    return this.state.pendingPods();
  }

  status(): ClusterInformerStatus {
    const resources = this.informers.map((i) => i.status());
    const lastHeard = this.lastHeardMs();
    const out: { -readonly [K in keyof ClusterInformerStatus]: ClusterInformerStatus[K] } = {
      synced: resources.every((r) => r.synced),
      errors: resources.reduce((a, r) => a + r.errors, 0),
      reconnects: resources.reduce((a, r) => a + r.reconnects, 0),
      relists: resources.reduce((a, r) => a + r.relists, 0),
      idleRestarts: resources.reduce((a, r) => a + r.idleRestarts, 0),
      counts: this.state.counts(),
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
}
