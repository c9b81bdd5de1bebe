import { ListWatch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from "@kubernetes/client-node";
import type { Logger } from "../observability/logger.js";
import type { ClusterMetrics } from "./cluster-metrics.js";
import { describeError } from "./describe-error.js";
import { GuardedWatch, WatchIdleError } from "./guarded-watch.js";

/**
 * One resource kept in sync with client-node's informer (`ListWatch`, what `makeInformer` builds:
 * list, then watch from the list's resourceVersion, relist on 410 Gone). Around it:
 * - list pages of `pageSize` (limit/continue), each item converted at once to a small view;
 * - the library's own cache is kept tiny: every object it stores is slimmed to its metadata key
 *   and resourceVersion once converted, so memory is the views, not raw objects;
 * - after a list or watch failure the library stops; this restarts it with exponential backoff
 *   and jitter, keeping the last view meanwhile;
 * - failures the library would leave as unhandled rejections (credentials failing when a watch
 *   reconnects) take the same path (`GuardedWatch`);
 * - a watch line of any kind (bookmarks too) counts as hearing from the API server. A watch
 *   that ends without an error (its `timeoutSeconds` ran out: the real API server sends no
 *   bookmark on a quiet watch) is watched again from its last resourceVersion, as client-go's
 *   reflector does: normal, logged at debug, no error. A watch silent for `watchIdleMs` makes
 *   the watchdog `probe` the API server: when it answers, the watch is only quiet and kept; when
 *   it does not, the watch is ended and watched again. A watch still open well past its own
 *   `timeoutSeconds` (which the server would have ended) is dead and is ended too.
 */
export interface ResourceInformerOptions<V> {
  readonly resource: string;
  readonly kubeConfig: KubeConfig;
  /** Watch path; may carry `?timeoutSeconds=..&allowWatchBookmarks=true`. */
  readonly watchPath: string;
  /** Server-side filter for list and watch, e.g. `spec.nodeName!=`. */
  readonly fieldSelector?: string;
  readonly listPage: (
    continueToken: string | undefined,
    fieldSelector: string | undefined,
  ) => Promise<KubernetesListObject<KubernetesObject>>;
  /**
   * Converts an object; undefined = not kept (e.g. an unscheduled pod). `source`: `list` for
   * the items of a (re)list, `watch` for watch events.
   */
  readonly convert: (obj: KubernetesObject, key: string, source: "list" | "watch") => V | undefined;
  readonly onChange: (key: string, view: V | undefined) => void;
  readonly log: Logger;
  readonly metrics?: ClusterMetrics;
  readonly now: () => number;
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
  /**
   * A watch that delivered nothing (no event, no bookmark) for this long is restarted, if `probe`
   * fails (or there is no probe); also the grace past its timeout. Undefined: never.
   */
  readonly watchIdleMs?: number;
  /** A cheap request to the API server (e.g. discovery) that gives up after a request timeout; answered = reachable. */
  readonly probe?: () => Promise<unknown>;
  /** `timeoutSeconds` of each watch (drawn per watch); undefined: the server's default. */
  readonly watchTimeoutSeconds?: () => number;
}

export interface ResourceInformerStatus {
  readonly resource: string;
  readonly synced: boolean;
  readonly lastHeardMs?: number;
  readonly errors: number;
  readonly lastError?: string;
  readonly reconnects: number;
  readonly relists: number;
  /** Watches the watchdog ended for silence. */
  readonly idleRestarts: number;
}

const VIEW = Symbol("hvx.view");
type Carrier = KubernetesObject & { [VIEW]?: unknown };

export function objectKey(obj: KubernetesObject): string {
  const ns = obj.metadata?.namespace ?? "";
  return ns === "" ? (obj.metadata?.name ?? "") : `${ns}/${obj.metadata?.name ?? ""}`;
}

export class ResourceInformer<V> {
  private readonly informer: ListWatch<KubernetesObject>;
  private readonly watch: GuardedWatch;
  private watchdog: NodeJS.Timeout | undefined;
  private probing = false;
  private stopped = true;
  private lists = 0;
  private connects = 0;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private state: {
    synced: boolean;
    lastHeardMs?: number;
    errors: number;
    lastError?: string;
    reconnects: number;
    relists: number;
    idleRestarts: number;
  } = {
    synced: false,
    errors: 0,
    reconnects: 0,
    relists: 0,
    idleRestarts: 0,
  };
  private resolveSynced!: () => void;
  /** Resolves on the first complete list. */
  readonly synced: Promise<void> = new Promise((resolve) => (this.resolveSynced = resolve));

  constructor(private readonly o: ResourceInformerOptions<V>) {
    this.watch = new GuardedWatch(o.kubeConfig, {
      heard: () => this.heard(),
      failed: (err) => this.failed(err),
      now: o.now,
      ...(o.watchTimeoutSeconds ? { timeoutSeconds: o.watchTimeoutSeconds } : {}),
    });
    this.informer = new ListWatch(o.watchPath, this.watch, () => this.list(), false, undefined, o.fieldSelector);
    this.informer.on("add", (obj) => this.apply(obj, "add"));
    this.informer.on("update", (obj) => this.apply(obj, "update"));
    this.informer.on("delete", (obj) => this.remove(obj));
    this.informer.on("error", (err) => this.failed(err));
    this.informer.on("connect", () => {
      if (this.connects++ > 0) {
        o.log.debug({ resource: o.resource }, "watch ended; watching again from its last resourceVersion");
        this.state.reconnects++;
        o.metrics?.reconnects.inc({ resource: o.resource });
      }
    });
  }

  start(): void {
    this.stopped = false;
    this.run();
    const idleMs = this.o.watchIdleMs;
    if (idleMs !== undefined && idleMs > 0 && this.watchdog === undefined) {
      this.watchdog = setInterval(() => this.checkIdle(idleMs), Math.min(5_000, Math.max(10, idleMs / 4)));
      this.watchdog.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.watchdog);
    this.watchdog = undefined;
    this.watch.close();
    await this.informer.stop();
  }

  status(): ResourceInformerStatus {
    return { resource: this.o.resource, ...this.state };
  }

  private run(): void {
    this.informer.start().catch((err: unknown) => this.failed(err));
  }

  private checkIdle(idleMs: number): void {
    if (this.stopped || this.probing) return;
    const overdue = this.watch.overdueMs();
    if (overdue !== undefined && overdue >= idleMs) {
      this.restartWatch({ pastTimeoutMs: overdue }, "watch still open past its timeoutSeconds (the API server would have ended it)");
      return;
    }
    const idle = this.watch.idleMs();
    if (idle === undefined || idle < idleMs) return;
    const probe = this.o.probe;
    if (!probe) {
      this.restartWatch({ silentForMs: idle }, "watch silent (no event, no bookmark) for kubernetes.watchIdleSeconds");
      return;
    }
    this.probing = true;
    Promise.resolve()
      .then(probe)
      .then(
        () => {
          if (this.stopped) return;
          this.watch.confirm();
          this.heard();
          this.o.log.debug({ resource: this.o.resource, silentForMs: idle }, "watch quiet; the API server answers: keeping it");
        },
        (err: unknown) => {
          if (this.stopped) return;
          this.restartWatch(
            { silentForMs: idle, probe: describeError(err) },
            "watch silent for kubernetes.watchIdleSeconds and the API server does not answer",
          );
        },
      )
      .finally(() => (this.probing = false));
  }

  private restartWatch(fields: Record<string, unknown>, why: string): void {
    this.state.idleRestarts++;
    this.o.metrics?.idleRestarts.inc({ resource: this.o.resource });
    this.o.log.warn({ resource: this.o.resource, ...fields }, `${why}; restarting it`);
    this.watch.restart(why);
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
      for (const item of page.items) items.push(slimCopy(item, this.convert(item, "list")));
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

  private convert(obj: KubernetesObject, source: "list" | "watch"): { view: V | undefined } {
    try {
      return { view: this.o.convert(obj, objectKey(obj), source) };
    } catch (err) {
      this.o.log.warn({ resource: this.o.resource, key: objectKey(obj), err: String(err) }, "cannot convert object; ignored");
      return { view: undefined };
    }
  }

  private apply(obj: Carrier, type: "add" | "update"): void {
    const carried = obj[VIEW] as { view: V | undefined } | undefined;
    const { view } = carried ?? this.convert(obj, "watch");
    const key = objectKey(obj);
    slimInPlace(obj);
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
    // A watch the watchdog ended is renewed at once (no backoff): the API server may be fine.
    const attempt = err instanceof WatchIdleError ? 0 : this.failures++;
    const ceiling = Math.min(this.o.backoff.maxMs, this.o.backoff.initialMs * 2 ** Math.min(attempt, 20));
    const delayMs = ceiling / 2 + Math.random() * (ceiling / 2);
    this.o.log.warn(
      { resource: this.o.resource, error: this.state.lastError, retryInMs: Math.round(delayMs) },
      "kubernetes list/watch failed; keeping the last view",
    );
    this.retryTimer = setTimeout(() => {
      if (!this.stopped) this.run();
    }, delayMs);
    this.retryTimer.unref();
  }
}

/** A new object with what ListWatch needs of a listed `obj` (name, namespace, resourceVersion), carrying its view until `apply`. */
function slimCopy(obj: KubernetesObject, converted: { view: unknown }): Carrier {
  const { name, namespace, resourceVersion } = obj.metadata ?? {};
  return { metadata: { name, namespace, resourceVersion }, [VIEW]: converted };
}

/**
 * Reduces an object ListWatch keeps (a watch event's, or a listed one's copy) in place to what it
 * needs. Properties are set to undefined, not deleted: deleting one turns the object into a
 * dictionary, about 0.4 KB more for each of the cluster's pods and nodes.
 */
function slimInPlace(obj: Carrier): void {
  const { name, namespace, resourceVersion } = obj.metadata ?? {};
  for (const k of Object.keys(obj)) (obj as Record<string, unknown>)[k] = undefined;
  obj.metadata = { name, namespace, resourceVersion };
  if (obj[VIEW] !== undefined) obj[VIEW] = undefined;
}
