import type { Agent } from "node:http";
import { Watch, type KubeConfig } from "@kubernetes/client-node";

/** A watch ended by hvx's watchdog: nothing (no event, no bookmark) arrived for too long. */
export class WatchIdleError extends Error {
  override name = "WatchIdleError";
}

export interface GuardedWatchHooks {
  /** Every line received (events and bookmarks) and every watch the API server accepted. */
  readonly heard: () => void;
  /** A failure that would otherwise be lost (a rejection nobody awaits). */
  readonly failed: (err: unknown) => void;
  readonly now: () => number;
}

type Callback = (phase: string, apiObj: unknown, watchObj?: unknown) => void;
type Done = (err: unknown) => unknown;

/**
 * client-node's `Watch`, made safe to leave running:
 * - a failure before the request goes out (an exec credential plugin failing, an expired token
 *   file, an unreadable client certificate) reaches the informer's error path through `done`;
 *   in client-node it rejects the promise of `ListWatch`'s reconnect handler, which nobody
 *   awaits: an unhandled rejection, which ends the process;
 * - a rejection of the `done` handler itself is reported too, never left unhandled;
 * - every line counts as a sign of life, and `idleMs()` tells how long the open watch has been
 *   silent, so a watchdog can `restart()` a connection that died without either end noticing.
 */
export class GuardedWatch extends Watch {
  private current: { controller?: AbortController; agent?: Agent; lastMs: number; idle: boolean } | undefined;
  private closed = false;

  constructor(
    config: KubeConfig,
    private readonly hooks: GuardedWatchHooks,
  ) {
    // Sees the agent of each watch request, so that a watch still waiting for its response
    // headers can be ended too (its AbortController is only handed out once they arrive).
    const recording = Object.create(config) as KubeConfig;
    recording.applyToFetchOptions = async (opts) => {
      const init = await config.applyToFetchOptions(opts);
      if (this.current && init.agent && typeof init.agent === "object") this.current.agent = init.agent as Agent;
      return init;
    };
    super(recording);
  }

  /** Milliseconds since the open watch last delivered anything (or was opened); undefined when none is open. */
  idleMs(): number | undefined {
    return this.current ? this.hooks.now() - this.current.lastMs : undefined;
  }

  /** Ends the open watch; its informer sees a `WatchIdleError` and watches again from its last resourceVersion. */
  restart(): void {
    const w = this.current;
    if (!w) return;
    w.idle = true;
    if (w.controller) w.controller.abort();
    else w.agent?.destroy();
  }

  /**
   * Ends the open watch and opens no other: `ListWatch` opens its watch when its list returns,
   * even when it was stopped while the list was in flight.
   */
  close(): void {
    this.closed = true;
    const w = this.current;
    if (w?.controller) w.controller.abort();
    else w?.agent?.destroy();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override async watch(path: string, queryParams: any, callback: Callback, done: Done): Promise<AbortController> {
    if (this.closed) {
      const none = new AbortController();
      none.abort();
      return none;
    }
    const w: { controller?: AbortController; agent?: Agent; lastMs: number; idle: boolean } = { lastMs: this.hooks.now(), idle: false };
    this.current = w;
    let ended = false;
    const finish = (err: unknown): void => {
      if (ended) return;
      ended = true;
      if (this.current === w) this.current = undefined;
      const reason = w.idle ? new WatchIdleError("no event or bookmark within kubernetes.watchIdleSeconds; watching again") : err;
      try {
        Promise.resolve(done(reason)).catch(this.hooks.failed);
      } catch (thrown) {
        this.hooks.failed(thrown);
      }
    };
    const onLine: Callback = (phase, obj, raw) => {
      w.lastMs = this.hooks.now();
      this.hooks.heard();
      callback(phase, obj, raw);
    };
    try {
      const controller = await super.watch(path, queryParams, onLine, finish);
      w.controller = controller;
      if (!ended) {
        w.lastMs = this.hooks.now();
        this.hooks.heard();
        if (w.idle) controller.abort();
      }
      return controller;
    } catch (err) {
      finish(err);
      return new AbortController();
    }
  }
}
