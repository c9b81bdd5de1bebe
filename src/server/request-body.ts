import type { IncomingMessage, ServerResponse } from "node:http";
import type { Refusal } from "../observability/refusal-metrics.js";

export const MIB = 1024 * 1024;

/** `{"Error": "hvx: ..."}`, the shape kube-scheduler logs. */
export function sendJsonError(res: ServerResponse, status: number, message: string, headers: Readonly<Record<string, string>> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ Error: `hvx: ${message}` }));
}

/** After a refusal, how long and how much of the rest of the body is read and dropped before the connection is cut. */
const LINGER_MS = 5_000;
const LINGER_BYTES = 32 * MIB;

/**
 * Answers without keeping any more of the body. The rest of the body is read and dropped
 * (a "lingering close", as nginx does): closing a socket with unread data makes TCP reset
 * the connection, and a client still sending often loses the answer with it. So when Node
 * would close the connection after the answer (the client asked for `Connection: close`,
 * or hvx is draining), only the sending side is closed, and the socket once the body has
 * ended. A client that keeps sending after LINGER_MS or LINGER_BYTES is cut off anyway.
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (req.complete) {
    sendJsonError(res, status, message, headers);
    return;
  }
  const socket = req.socket;
  // For this request only (an own property shadows Node's method; removed when the body ends).
  socket.destroySoon = () => {
    socket.end();
  };
  const restore = () => {
    delete (socket as { destroySoon?: unknown }).destroySoon;
  };
  let dropped = 0;
  const cut = () => {
    restore();
    socket.destroy();
  };
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) cut();
  });
  req.once("end", () => {
    clearTimeout(timer);
    restore();
    // Half-closed above: the whole body has been read, nothing to reset; close for good
    // once the answer is flushed (Node's own destroySoon, restored).
    if (socket.writableEnded) socket.destroySoon();
  });
  req.once("close", () => {
    clearTimeout(timer);
    restore();
  });
  req.resume();
  sendJsonError(res, status, message, headers);
}

/**
 * 415 for a body with any `Content-Encoding` other than `identity`; true when it answered.
 * kube-scheduler and the API server never compress, and hvx never inflates: a 177 KB gzip
 * body can hold 91 MB of JSON.
 */
export function refuseEncodedBody(req: IncomingMessage, res: ServerResponse, onRefuse?: (reason: Refusal) => void): boolean {
  const header = req.headers["content-encoding"];
  if (header === undefined) return false;
  const codings = header
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "");
  if (codings.every((c) => c === "identity")) return false;
  onRefuse?.("encoded");
  refuse(req, res, 415, `Content-Encoding ${JSON.stringify(header.slice(0, 64))} is not accepted: send the body uncompressed (identity)`);
  return true;
}

/**
 * Bytes of request bodies held in memory at once, across all requests of one listener. The
 * per-request limit alone lets 40 concurrent bodies just under it take 40 times the limit;
 * with the budget, a body that does not fit is refused with 503 (kube-scheduler's extender
 * client treats it as an error; `ignorable: true` then schedules without hvx).
 */
export class BodyBudget {
  private used = 0;
  constructor(readonly totalBytes: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.totalBytes) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }

  get inUse(): number {
    return this.used;
  }
}

export interface BodyRules {
  readonly limitBytes: number;
  /** Config key named in the 413 message, e.g. `server.bodyLimitMB`. */
  readonly limitKey: string;
  readonly budget?: BodyBudget;
  /** Counts refusals (metrics). */
  readonly onRefuse?: (reason: Refusal) => void;
}

/** `readBodyBytes` as UTF-8 text. */
export function readBody(req: IncomingMessage, res: ServerResponse, rules: BodyRules): Promise<string | undefined> {
  return readBodyBytes(req, res, rules).then((bytes) => bytes?.toString("utf8"));
}

/**
 * Reads a request body, enforcing the limit while it streams: a declared `Content-Length`
 * over the limit is refused before any byte is read, and a body that grows past it (chunked)
 * is refused at the chunk that crosses it; what was read is dropped. Resolves undefined when
 * it has answered (413, 503) or the client went away.
 */
export function readBodyBytes(req: IncomingMessage, res: ServerResponse, rules: BodyRules): Promise<Buffer | undefined> {
  const tooLarge = () => {
    rules.onRefuse?.("too_large");
    refuse(req, res, 413, `request body larger than ${formatMB(rules.limitBytes)} MB (${rules.limitKey})`);
  };
  const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
  if (declared !== undefined && declared > rules.limitBytes) {
    tooLarge();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let held = 0;
    let settled = false;
    const finish = (body: Buffer | undefined) => {
      if (settled) return;
      settled = true;
      chunks = [];
      rules.budget?.give(held);
      held = 0;
      resolve(body);
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > rules.limitBytes) {
        tooLarge();
        finish(undefined);
        return;
      }
      if (rules.budget && !rules.budget.take(chunk.length)) {
        rules.onRefuse?.("busy");
        refuse(req, res, 503, "too many large request bodies in flight; retry", { "Retry-After": "1" });
        finish(undefined);
        return;
      }
      held += chunk.length;
      chunks.push(chunk);
    });
    req.on("end", () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.on("error", () => finish(undefined));
    req.on("close", () => finish(undefined));
  });
}

function formatMB(bytes: number): string {
  return String(Math.round((bytes / MIB) * 100) / 100);
}
