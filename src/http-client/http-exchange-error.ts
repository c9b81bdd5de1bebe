/**
 * An HTTP exchange that got no usable answer: refused, reset, TLS, timeout, a body over the cap
 * or one that would not decompress. It holds a safe code (`ECONNREFUSED`, `ETIMEDOUT`) and a
 * fixed detail only: nothing of the request (headers, body, query) and no cause, so no secret
 * can ride along into a log line.
 */
export class HttpExchangeError extends Error {
  override name = "HttpExchangeError";
  constructor(
    readonly code: string,
    readonly detail: string,
    /** A pooled keep-alive socket the server had already closed: one attempt on a fresh socket may succeed. */
    readonly staleSocket = false,
  ) {
    super(detail ? `${code} (${detail})` : code);
  }
}

/** Keeps only an error's code when it looks like one (`ECONNRESET`, `ERR_TLS_CERT_ALTNAME_INVALID`). */
export function safeErrorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[A-Z0-9_]+$/.test(code) ? code : "ERR_UNKNOWN";
}
