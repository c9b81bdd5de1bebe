import type { Agent } from "node:http";
import { Watch, type KubeConfig } from "@kubernetes/client-node";

/** A watch ended by hvx's watchdog: silent while the API server did not answer, or open past its timeout. */
export class WatchIdleError extends Error {
  override name = "WatchIdleError";
}

export interface GuardedWatchHooks {
  /** Every line received (events and bookmarks) and every watch the API server accepted. */
  readonly heard: () => void;
  /** A failure that would otherwise be lost (a rejection nobody awaits). */
  readonly failed: (err: unknown) => void;
  readonly now: () => number;
  /**
   * The server-side `timeoutSeconds` of each new watch (client-go's reflector draws one between
   * its minimum and twice that, so watches do not all end together); undefined: none is sent.
   */
  readonly timeoutSeconds?: () => number;
}

type OpenWatch = { controller?: AbortController; agent?: Agent; lastMs: number; ended?: string; openedMs: number; timeoutMs?: number };

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
 *   silent, so a watchdog can `restart()` a connection that died without either end noticing;
 * - each watch asks for its own `timeoutSeconds`, and `overdueMs()` tells how long an open watch
 *   has outlived it (the API server ends a watch at its timeout: one still open later is dead).
 */
export class GuardedWatch extends Watch {
  private current: OpenWatch | undefined;
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

  /** Milliseconds the open watch has outlived its `timeoutSeconds`, or 0; undefined when none is open or none was asked. */
  overdueMs(): number | undefined {
    const w = this.current;
    if (w?.timeoutMs === undefined) return undefined;
    return Math.max(0, this.hooks.now() - w.openedMs - w.timeoutMs);
  }

  /** The open watch counts as heard from now (the API server answered another request: a quiet watch is not a dead one). */
  confirm(): void {
    if (this.current) this.current.lastMs = this.hooks.now();
  }

  /** Ends the open watch; its informer sees a `WatchIdleError` saying `why` and watches again from its last resourceVersion. */
  restart(why: string): void {
    const w = this.current;
    if (!w) return;
    w.ended = why;
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
    const openedMs = this.hooks.now();
    const w: OpenWatch = { lastMs: openedMs, openedMs };
    const timeoutSeconds = this.hooks.timeoutSeconds?.();
    if (timeoutSeconds !== undefined) {
      w.timeoutMs = timeoutSeconds * 1000;
      queryParams = { ...queryParams, timeoutSeconds };
    }
    this.current = w;
    let ended = false;
    const finish = (err: unknown): void => {
      if (ended) return;
      ended = true;
      if (this.current === w) this.current = undefined;
      const reason = w.ended !== undefined ? new WatchIdleError(`${w.ended}; watching again`) : err;
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
        if (w.ended !== undefined) controller.abort();
      }
      return controller;
    } catch (err) {
      finish(err);
      return new AbortController();
    }
  }
}
