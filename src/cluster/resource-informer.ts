import { ListWatch, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from "@kubernetes/client-node";
import type { Logger } from "../observability/logger.js";
import type { ClusterMetrics } from "./cluster-metrics.js";
import { describeError } from "./describe-error.js";

/**
 * One resource kept in sync with client-node's informer (`ListWatch`, what `makeInformer` builds:
 * list, then watch from the list's resourceVersion, relist on 410 Gone). Around it:
 * - list pages of `pageSize` (limit/continue), each item converted at once to a small view;
 * - the library's own cache is kept tiny: every object it stores is slimmed to its metadata key
 *   and resourceVersion once converted, so memory is the views, not raw objects;
 * - after a list or watch failure the library stops; this restarts it with exponential backoff
 *   and jitter, keeping the last view meanwhile;
 * - a watch line of any kind (bookmarks too) counts as hearing from the API server.
 */
export interface ResourceInformerOptions<V> {
  readonly resource: string;
  readonly kubeConfig: KubeConfig;
  /** Watch path; may carry `?timeoutSeconds=..&allowWatchBookmarks=true`. */
  readonly watchPath: string;
  /** Server-side filter for list and watch, e.g. `spec.nodeName!=`. */
  readonly fieldSelector?: string;
  readonly listPage: (continueToken: string | undefined, fieldSelector: string | undefined) => Promise<KubernetesListObject<KubernetesObject>>;
  /** Converts an object; undefined = not kept (e.g. an unscheduled pod). */
  readonly convert: (obj: KubernetesObject, key: string) => V | undefined;
  readonly onChange: (key: string, view: V | undefined) => void;
  readonly log: Logger;
  readonly metrics?: ClusterMetrics;
  readonly now: () => number;
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
}

export interface ResourceInformerStatus {
  readonly resource: string;
  readonly synced: boolean;
  readonly lastHeardMs?: number;
  readonly errors: number;
  readonly lastError?: string;
  readonly reconnects: number;
  readonly relists: number;
}

const VIEW = Symbol("hvx.view");
type Carrier = KubernetesObject & { [VIEW]?: unknown };

export function objectKey(obj: KubernetesObject): string {
  const ns = obj.metadata?.namespace ?? "";
  return ns === "" ? (obj.metadata?.name ?? "") : `${ns}/${obj.metadata?.name ?? ""}`;
}

export class ResourceInformer<V> {
  private readonly informer: ListWatch<KubernetesObject>;
  private stopped = true;
  private lists = 0;
  private connects = 0;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private state: { synced: boolean; lastHeardMs?: number; errors: number; lastError?: string; reconnects: number; relists: number } = {
    synced: false,
    errors: 0,
    reconnects: 0,
    relists: 0,
  };
  private resolveSynced!: () => void;
  /** Resolves on the first complete list. */
  readonly synced: Promise<void> = new Promise((resolve) => (this.resolveSynced = resolve));

  constructor(private readonly o: ResourceInformerOptions<V>) {
    const watch = new HeardWatch(o.kubeConfig, () => this.heard());
    this.informer = new ListWatch(o.watchPath, watch, () => this.list(), false, undefined, o.fieldSelector);
    this.informer.on("add", (obj) => this.apply(obj, "add"));
    this.informer.on("update", (obj) => this.apply(obj, "update"));
    this.informer.on("delete", (obj) => this.remove(obj));
    this.informer.on("error", (err) => this.failed(err));
    this.informer.on("connect", () => {
      if (this.connects++ > 0) {
        this.state.reconnects++;
        o.metrics?.reconnects.inc({ resource: o.resource });
      }
    });
  }

  start(): void {
    this.stopped = false;
    this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    await this.informer.stop();
  }

  status(): ResourceInformerStatus {
    return { resource: this.o.resource, ...this.state };
  }

  private run(): void {
    this.informer.start().catch((err: unknown) => this.failed(err));
  }

  private heard(): void {
    this.state.lastHeardMs = this.o.now();
    this.failures = 0;
  }

  private async list(): Promise<KubernetesListObject<KubernetesObject>> {
    const items: Carrier[] = [];
    let resourceVersion: string | undefined;
    let token: string | undefined;
    do {
      const page = await this.o.listPage(token, this.o.fieldSelector);
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
      for (const item of page.items) items.push(this.slim(item, this.convert(item)));
      token = page.metadata?._continue || undefined;
    } while (token !== undefined);
    if (this.lists++ > 0) {
      this.state.relists++;
      this.o.metrics?.relists.inc({ resource: this.o.resource });
    }
    this.heard();
    this.state.synced = true;
    this.resolveSynced();
    return { apiVersion: "v1", kind: "List", metadata: { resourceVersion: resourceVersion ?? "" }, items };
  }

  private convert(obj: KubernetesObject): { view: V | undefined } {
    try {
      return { view: this.o.convert(obj, objectKey(obj)) };
    } catch (err) {
      this.o.log.warn({ resource: this.o.resource, key: objectKey(obj), err: String(err) }, "cannot convert object; ignored");
      return { view: undefined };
    }
  }

  /** Reduces `obj` in place to what ListWatch needs (name, namespace, resourceVersion). */
  private slim(obj: Carrier, converted?: { view: V | undefined }): Carrier {
    const { name, namespace, resourceVersion } = obj.metadata ?? {};
    for (const k of Object.keys(obj)) delete (obj as Record<string, unknown>)[k];
    obj.metadata = { name, namespace, resourceVersion };
    if (converted) obj[VIEW] = converted;
    else delete obj[VIEW];
    return obj;
  }

  private apply(obj: Carrier, type: "add" | "update"): void {
    const carried = obj[VIEW] as { view: V | undefined } | undefined;
    const { view } = carried ?? this.convert(obj);
    const key = objectKey(obj);
    this.slim(obj);
    this.o.metrics?.events.inc({ resource: this.o.resource, type });
    this.o.onChange(key, view);
  }

  private remove(obj: KubernetesObject): void {
    this.o.metrics?.events.inc({ resource: this.o.resource, type: "delete" });
    this.o.onChange(objectKey(obj), undefined);
  }

  private failed(err: unknown): void {
    if (this.stopped) return;
    this.state.errors++;
    this.state.lastError = describeError(err);
    this.o.metrics?.errors.inc({ resource: this.o.resource });
    clearTimeout(this.retryTimer);
    const ceiling = Math.min(this.o.backoff.maxMs, this.o.backoff.initialMs * 2 ** Math.min(this.failures++, 20));
    const delayMs = ceiling / 2 + Math.random() * (ceiling / 2);
    this.o.log.warn({ resource: this.o.resource, error: this.state.lastError, retryInMs: Math.round(delayMs) }, "kubernetes list/watch failed; keeping the last view");
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.run();
    }, delayMs);
    this.retryTimer.unref();
  }
}

/** client-node's Watch, reporting every line received (bookmarks included) as a sign of life. */
class HeardWatch extends Watch {
  constructor(config: KubeConfig, private readonly onLine: () => void) {
    super(config);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override watch(path: string, queryParams: any, callback: (phase: string, apiObj: any, watchObj?: any) => void, done: (err: any) => void): Promise<AbortController> {
    return super.watch(path, queryParams, (phase, obj, raw) => {
      this.onLine();
      callback(phase, obj, raw);
    }, done);
  }
}
