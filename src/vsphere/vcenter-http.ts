import { createHttpSender } from "../http-client/create-http-sender.js";
import { HttpExchangeError, safeErrorCode } from "../http-client/http-exchange-error.js";
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
  /** Largest reply body accepted, decoded (default DEFAULT_MAX_BODY_BYTES, 256 MiB); beyond it the request fails. */
  readonly maxBodyBytes?: number;
}

/** One line naming a request for errors and logs: method and path, no query, no headers. */
export function describeRequest(request: Pick<VcenterRequest, "method" | "path">): string {
  return `${request.method} ${request.path}`;
}

/**
 * The only place that talks to vCenter. Every status comes back as a response (the clients
 * decide what it means); a request without an answer becomes a VcenterNetworkError built from
 * the error code only, so the request's headers and body (Authorization, session token, the
 * Login password) never escape.
 */
export function createVcenterHttp(options: VcenterHttpOptions): { send: VcenterSend; close(): void } {
  const base = parseBaseUrl(options.baseUrl);
  const limit = createLimiter(options.maxConcurrency);
  const sender = createHttpSender({
    timeoutMs: options.timeoutMs,
    ...(options.caPem !== undefined ? { caPem: options.caPem } : {}),
    insecureSkipTLSVerify: options.insecureSkipTLSVerify,
    maxSockets: options.maxConcurrency,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
  });

  const send: VcenterSend = (api, request) =>
    limit(async () => {
      try {
        const reply = await sender.send({
          method: request.method,
          url: new URL(base + request.path + queryString(request.query)),
          headers: requestHeaders(request),
          ...(request.text ? { body: request.text.body } : request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
        });
        options.onRequest?.(api, reply.status >= 200 && reply.status < 300 ? "ok" : "error_status");
        const headers = reply.headers;
        return { status: reply.status, header: (name: string) => headers.get(name.toLowerCase()), bodyText: reply.bodyText };
      } catch (err) {
        options.onRequest?.(api, "network_error");
        throw toNetworkError(api, request, err);
      }
    });

  return { send, close: () => sender.close() };
}

/**
 * Accept: JSON unless the request says otherwise (SOAP asks for text/xml). A body says what it is
 * (vCenter refuses JSON without its Content-Type); without a body, no Content-Type at all.
 */
function requestHeaders(request: VcenterRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.text) headers["content-type"] = request.text.contentType;
  else if (request.body !== undefined) headers["content-type"] = "application/json";
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
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
function toNetworkError(api: VcenterApi, request: VcenterRequest, err: unknown): VcenterNetworkError {
  const safeCode = safeErrorCode(err);
  const detail = UNTRUSTED_CERT_CODES.has(safeCode)
    ? "the vCenter's certificate is not trusted: set vcenter.caFile to the PEM of the CA that signed it (vCenter's VMCA root: https://<vcenter>/certs/download.zip)"
    : err instanceof HttpExchangeError
      ? err.detail
      : "";
  return new VcenterNetworkError(api, describeRequest(request), safeCode, detail, {
    cause: new Error(`${safeCode} on ${describeRequest(request)}`),
  });
}
