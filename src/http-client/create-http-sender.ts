import http from "node:http";
import https from "node:https";
import type { Transform } from "node:stream";
import { bodyText } from "./body-text.js";
import { ACCEPTED_ENCODINGS, decompressorFor } from "./decompressor-for.js";
import { HttpExchangeError, safeErrorCode } from "./http-exchange-error.js";

/**
 * Largest reply body kept, decoded. V8 cannot hold a string of 512 MiB or more, so the cap stays
 * well below that; vCenter's largest replies (QueryPerf) are a few MB.
 */
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;

export interface HttpSenderOptions {
  /** Deadline for the whole exchange: connecting, the request, the reply's headers and its last byte. */
  readonly timeoutMs: number;
  /** PEM bundle trusted in addition to nothing else (replaces the system CAs when given). */
  readonly caPem?: string;
  readonly insecureSkipTLSVerify: boolean;
  /** Keep-alive sockets per host. */
  readonly maxSockets: number;
  readonly maxBodyBytes?: number;
}

export interface HttpExchange {
  readonly method: string;
  readonly url: URL;
  /** Sent as given; the sender adds `accept-encoding` and, with a body, `content-length`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface HttpReply {
  readonly status: number;
  /** By lower-case name; a repeated header (Set-Cookie) holds its values joined by newlines. */
  readonly headers: ReadonlyMap<string, string>;
  readonly bodyText: string;
}

export interface HttpSender {
  /** Any status is a reply (redirects are not followed); no answer rejects with an HttpExchangeError. */
  send(exchange: HttpExchange): Promise<HttpReply>;
  close(): void;
}

/**
 * HTTP(S) with node:http on keep-alive agents. No proxy from the environment, no redirects. A
 * request that fails on a reused socket with ECONNRESET/EPIPE before any reply (the server closed
 * the idle socket) is sent once more; every request hvx makes is a read.
 */
export function createHttpSender(options: HttpSenderOptions): HttpSender {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets };
  const agents = {
    http: new http.Agent(agentOptions),
    https: new https.Agent({
      ...agentOptions,
      rejectUnauthorized: !options.insecureSkipTLSVerify,
      ...(options.caPem !== undefined ? { ca: options.caPem } : {}),
    }),
  };
  const limits = { timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };

  return {
    async send(exchange) {
      const deadlineMs = Date.now() + limits.timeoutMs;
      try {
        return await exchangeOnce(agents, limits, exchange, deadlineMs);
      } catch (err) {
        if (err instanceof HttpExchangeError && err.staleSocket) return exchangeOnce(agents, limits, exchange, deadlineMs);
        throw err;
      }
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

interface Limits {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
}

function exchangeOnce(
  agents: { http: http.Agent; https: https.Agent },
  limits: Limits,
  exchange: HttpExchange,
  deadlineMs: number,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const isHttps = exchange.url.protocol === "https:";
    const headers: Record<string, string> = { "accept-encoding": ACCEPTED_ENCODINGS, ...exchange.headers };
    if (exchange.body !== undefined) headers["content-length"] = String(Buffer.byteLength(exchange.body));

    let settled = false;
    let replied = false;
    let decoder: Transform | undefined;
    // Emptied once settled, so the listeners left on the request keep no body alive.
    let chunks: Buffer[] = [];
    let bytes = 0;

    const fail = (err: HttpExchangeError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chunks = [];
      req.destroy();
      decoder?.destroy();
      reject(err);
    };
    const succeed = (status: number, replyHeaders: ReadonlyMap<string, string>): void => {
      if (settled) return;
      let text: string;
      try {
        text = bodyText(chunks, bytes);
      } catch (err) {
        fail(new HttpExchangeError(safeErrorCode(err), "the reply body could not be decoded as text"));
        return;
      }
      settled = true;
      clearTimeout(timer);
      chunks = [];
      resolve({ status, headers: replyHeaders, bodyText: text });
    };

    let req: http.ClientRequest;
    try {
      req = (isHttps ? https : http).request(
        exchange.url,
        { method: exchange.method, headers, agent: isHttps ? agents.https : agents.http },
        (res) => {
          replied = true;
          const status = res.statusCode ?? 0;
          const replyHeaders = headerMap(res.headers);
          res.on("error", (err) => fail(new HttpExchangeError(safeErrorCode(err), "")));
          decoder = status === 204 || status === 304 ? undefined : decompressorFor(res.headers["content-encoding"]);
          if (decoder) {
            decoder.on("error", (err) => fail(new HttpExchangeError(safeErrorCode(err), "the reply body could not be decompressed")));
            res.pipe(decoder);
          }
          const body = decoder ?? res;
          body.on("data", (chunk: Buffer) => {
            if (settled) return;
            bytes += chunk.length;
            if (bytes > limits.maxBodyBytes) {
              fail(new HttpExchangeError("ERR_BODY_TOO_LARGE", `the reply body is over the ${limits.maxBodyBytes}-byte cap`));
            } else chunks.push(chunk);
          });
          body.on("end", () => succeed(status, replyHeaders));
        },
      );
    } catch (err) {
      // A header value Node refuses (a control character), a bad method: nothing was sent.
      reject(new HttpExchangeError(safeErrorCode(err), "the request could not be built"));
      return;
    }
    req.on("error", (err) => {
      const code = safeErrorCode(err);
      fail(new HttpExchangeError(code, "", req.reusedSocket && !replied && (code === "ECONNRESET" || code === "EPIPE")));
    });
    const timer = setTimeout(
      () => fail(new HttpExchangeError("ETIMEDOUT", `no answer within ${limits.timeoutMs} ms`)),
      Math.max(0, deadlineMs - Date.now()),
    );
    req.end(exchange.body);
  });
}

function headerMap(raw: http.IncomingHttpHeaders): ReadonlyMap<string, string> {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join("\n"));
  }
  return headers;
}
