import type { IncomingMessage, ServerResponse } from "node:http";
import { expired } from "./kube-status.js";
import type { RevisionClock, ResourceStore, StoreEvent, WatchEventType } from "./resource-store.js";
import type { Matcher } from "./selector.js";

export interface WatchRequest {
  readonly store: ResourceStore;
  readonly clock: RevisionClock;
  readonly matches: Matcher;
  /** The `resourceVersion` query parameter: absent, "" or "0" = current state as ADDED, then changes. */
  readonly resourceVersion: string | null;
  readonly allowWatchBookmarks: boolean;
  readonly timeoutSeconds?: number;
  readonly bookmarkIntervalMs: number;
  /** Answer a too-old resourceVersion with HTTP 410 instead of an ERROR event (older servers). */
  readonly expiredAsHttp: boolean;
}

/**
 * A watch stream: JSON lines `{"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}}`.
 * A resourceVersion older than the compaction mark gets, like the real server, a 200 whose only
 * line is an ERROR event carrying a `Status` 410 Expired, then the stream ends.
 * Returns the stream's handle: `end` closes it cleanly (`dropWatches`); `silence` keeps the
 * connection open but sends nothing more, no event and no bookmark (a connection that died
 * somewhere on the way without either end noticing: `silenceWatches`).
 */
export interface WatchHandle {
  end(): void;
  silence(): void;
}

const NOOP_HANDLE: WatchHandle = { end: () => undefined, silence: () => undefined };

export function serveWatch(req: IncomingMessage, res: ServerResponse, w: WatchRequest, onEnd: () => void): WatchHandle {
  const rvText = w.resourceVersion ?? "";
  const sinceRv = rvText === "" || rvText === "0" ? undefined : Number(rvText);
  const sendJson = (status: number, body: unknown): void => {
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  };
  if (sinceRv !== undefined && (!Number.isSafeInteger(sinceRv) || sinceRv < 0)) {
    sendJson(400, expired(`invalid resourceVersion ${JSON.stringify(rvText)}`));
    onEnd();
    return NOOP_HANDLE;
  }
  if (sinceRv !== undefined && sinceRv < w.clock.compactedRv) {
    const status = expired(`too old resource version: ${sinceRv} (${w.clock.compactedRv + 1})`);
    if (w.expiredAsHttp) sendJson(410, status);
    else {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(`${JSON.stringify({ type: "ERROR", object: status })}\n`);
    }
    onEnd();
    return NOOP_HANDLE;
  }

  res.writeHead(200, { "Content-Type": "application/json", "Transfer-Encoding": "chunked" });
  res.flushHeaders();
  let lastRv = sinceRv ?? w.clock.rv;
  let ended = false;
  let silent = false;
  const write = (type: WatchEventType | "BOOKMARK", objectJson: string): void => {
    if (!ended && !silent) res.write(`{"type":"${type}","object":${objectJson}}\n`);
  };
  const deliver = (e: StoreEvent): void => {
    if (e.rv <= lastRv) return;
    lastRv = e.rv;
    const now = w.matches(e.index);
    const before = e.prevIndex ? w.matches(e.prevIndex) : e.type === "DELETED" ? now : false;
    if (e.type === "MODIFIED") {
      if (now && before) write("MODIFIED", e.json);
      else if (now) write("ADDED", e.json);
      else if (before) write("DELETED", e.json);
    } else if (now) write(e.type, e.json);
  };

  if (sinceRv === undefined) {
    for (const stored of w.store.all()) if (w.matches(stored.index)) write("ADDED", stored.json);
  } else {
    for (const e of w.store.eventsSince(sinceRv)) deliver(e);
  }
  const unsubscribe = w.store.subscribe(deliver);
  const timers: NodeJS.Timeout[] = [];
  if (w.allowWatchBookmarks) {
    const { kind, apiVersion } = w.store.type;
    timers.push(
      setInterval(() => {
        lastRv = Math.max(lastRv, w.clock.rv);
        write("BOOKMARK", JSON.stringify({ kind, apiVersion, metadata: { resourceVersion: String(lastRv) } }));
      }, w.bookmarkIntervalMs),
    );
  }
  const end = (): void => {
    if (ended) return;
    ended = true;
    unsubscribe();
    for (const t of timers) clearInterval(t);
    res.end();
    onEnd();
  };
  // A silenced stream stands for a connection that died on the way: its client never sees the end either.
  if (w.timeoutSeconds !== undefined && w.timeoutSeconds > 0) timers.push(setTimeout(() => silent || end(), w.timeoutSeconds * 1000));
  for (const t of timers) t.unref();
  req.on("close", end);
  res.on("close", end);
  return {
    end,
    silence: () => {
      silent = true;
    },
  };
}
