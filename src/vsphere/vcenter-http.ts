import http from "node:http";
import https from "node:https";
import axios, { type AxiosInstance } from "axios";
import { createLimiter } from "./concurrency-limiter.js";
import type { VcenterApi } from "./vcenter-api.js";
import { VcenterConfigError } from "./vcenter-config-error.js";
import { VcenterNetworkError } from "./vcenter-network-error.js";

export interface VcenterRequest {
  readonly method: "GET" | "POST" | "DELETE";
  /** Absolute path on the vCenter, e.g. `/api/vcenter/vm`. */
  readonly path: string;
  /** Repeated keys, as the Automation API wants filters: `hosts=a&hosts=b`. */
  readonly query?: Readonly<Record<string, readonly string[]>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** A body sent as is (SOAP XML), with its Content-Type; instead of `body`. */
  readonly text?: { readonly contentType: string; readonly body: string };
}

export interface VcenterResponse {
  readonly status: number;
  /** Response header by lower-case name; a repeated header (Set-Cookie) comes as its values joined by newlines. */
  header(name: string): string | undefined;
  readonly bodyText: string;
}

/** `ok` = 2xx; `error_status` = any other status; `network_error` = no answer. */
export type RequestOutcome = "ok" | "error_status" | "network_error";

export type VcenterSend = (api: VcenterApi, request: VcenterRequest) => Promise<VcenterResponse>;

export interface VcenterHttpOptions {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** PEM bundle trusted in addition to nothing else (replaces the system CAs when given). */
  readonly caPem?: string;
  readonly insecureSkipTLSVerify: boolean;
  /** Requests in flight at once, across both APIs. */
  readonly maxConcurrency: number;
  readonly onRequest?: (api: VcenterApi, outcome: RequestOutcome) => void;
}

/** One line naming a request for errors and logs: method and path, no query, no headers. */
export function describeRequest(request: Pick<VcenterRequest, "method" | "path">): string {
  return `${request.method} ${request.path}`;
}

/**
 * The only place that talks to the network. Every status comes back as a response (the
 * clients decide what it means); a request without an answer becomes a VcenterNetworkError
 * built from the error code only, because axios errors carry the request headers and body
 * (Authorization, session token, the Login password) and must never escape.
 */
export function createVcenterHttp(options: VcenterHttpOptions): { send: VcenterSend; close(): void } {
  const base = parseBaseUrl(options.baseUrl);
  const limit = createLimiter(options.maxConcurrency);
  const agentOptions = { keepAlive: true, maxSockets: options.maxConcurrency };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent({
    ...agentOptions,
    rejectUnauthorized: !options.insecureSkipTLSVerify,
    ...(options.caPem !== undefined ? { ca: options.caPem } : {}),
  });
  const client: AxiosInstance = axios.create({
    timeout: options.timeoutMs,
    maxRedirects: 0,
    responseType: "text",
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    httpAgent,
    httpsAgent,
    proxy: false,
  });

  const send: VcenterSend = (api, request) =>
    limit(async () => {
      const requestOnce = (url: string) =>
        client.request<string>({
          url,
          method: request.method,
          headers: {
            Accept: "application/json",
            // A body is JSON and says so (vCenter refuses it otherwise); without a body, no
            // Content-Type at all (axios would default a POST to form-urlencoded).
            "Content-Type": request.text ? request.text.contentType : request.body !== undefined ? "application/json" : false,
            ...request.headers,
          },
          data: request.text ? request.text.body : request.body !== undefined ? JSON.stringify(request.body) : undefined,
        });
      const url = base + request.path + queryString(request.query);
      try {
        const res = await requestOnce(url).catch((err: unknown) => {
          // A pooled keep-alive socket the server already closed: one fresh attempt (every call hvx makes is a read).
          if (isStaleSocket(err)) return requestOnce(url);
          throw err;
        });
        options.onRequest?.(api, res.status >= 200 && res.status < 300 ? "ok" : "error_status");
        const headers = res.headers as Record<string, unknown>;
        return {
          status: res.status,
          header: (name: string) => {
            const v = headers[name.toLowerCase()];
            return typeof v === "string" ? v : Array.isArray(v) ? v.map(String).join("\n") : undefined;
          },
          bodyText: typeof res.data === "string" ? res.data : "",
        };
      } catch (err) {
        options.onRequest?.(api, "network_error");
        throw toNetworkError(api, request, err, options.timeoutMs);
      }
    });

  return {
    send,
    close: () => {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new VcenterConfigError("vcenter.url is not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new VcenterConfigError(`vcenter.url must be https:// (or http:// for a local mock), got ${url.protocol}`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new VcenterConfigError("vcenter.url must not embed credentials: use vcenter.username / vcenter.password");
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function isStaleSocket(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === "ECONNRESET" || code === "EPIPE";
}

function queryString(query: VcenterRequest["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [key, values] of Object.entries(query)) for (const v of values) params.append(key, v);
  const s = params.toString();
  return s === "" ? "" : `?${s}`;
}

/** Node's codes for a certificate chain it cannot verify against the trusted CAs. */
const UNTRUSTED_CERT_CODES: ReadonlySet<string> = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_GET_ISSUER_CERT",
]);

/** Keeps only the error code and a fixed description: nothing from the request survives. */
function toNetworkError(api: VcenterApi, request: VcenterRequest, err: unknown, timeoutMs: number): VcenterNetworkError {
  const code = (err as { code?: unknown } | null)?.code;
  const safeCode = typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "ERR_UNKNOWN";
  const detail =
    safeCode === "ECONNABORTED" || safeCode === "ETIMEDOUT"
      ? `no answer within ${timeoutMs} ms`
      : UNTRUSTED_CERT_CODES.has(safeCode)
        ? "the vCenter's certificate is not trusted: set vcenter.caFile to the PEM of the CA that signed it (vCenter's VMCA root: https://<vcenter>/certs/download.zip)"
        : "";
  return new VcenterNetworkError(api, describeRequest(request), safeCode, detail, {
    cause: new Error(`${safeCode} on ${describeRequest(request)}`),
  });
}
