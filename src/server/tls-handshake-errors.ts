import type { Socket } from "node:net";
import type { Server as TlsServer, TLSSocket } from "node:tls";
import type { Logger } from "../observability/logger.js";
import { RateLimited } from "../observability/rate-limited.js";
import type { TlsHandshakeFailureReason, TlsHandshakeMetrics, ListenerName } from "../observability/tls-handshake-metrics.js";

/** One log line per listener, reason and peer address per minute; the counter counts every failure. */
export const HANDSHAKE_LOG_INTERVAL_MS = 60_000;

// OpenSSL's verify results for a chain that does not lead to a trusted CA (X509_V_ERR_*, as Node names them).
const UNTRUSTED_CHAIN = new Set([
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
]);
// Alerts a client sends when it refuses the server's certificate (Go's crypto/tls sends
// unknown_ca for an unknown authority and bad_certificate for a name mismatch). OpenSSL 3.x,
// in Node.js 24, names the SSLv3-era alerts `SSL/TLS_ALERT_...` (`ERR_SSL_SSL/TLS_ALERT_BAD_CERTIFICATE`).
const CLIENT_REFUSED_OURS =
  /^ERR_SSL_(SSLV3|TLSV1|SSL\/TLS)_ALERT_(UNKNOWN_CA|BAD_CERTIFICATE|UNSUPPORTED_CERTIFICATE|CERTIFICATE_[A-Z_]+)$/;

/**
 * The reason label of a failed handshake, from the error of `tlsClientError` and the socket's
 * `authorizationError` (set when hvx itself refused the client's certificate: Node then
 * destroys the socket and the error is only ECONNRESET).
 */
export function classifyTlsHandshakeError(code: string | undefined, authorizationError: string | undefined): TlsHandshakeFailureReason {
  if (code === "ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE") return "no_client_certificate";
  if (authorizationError !== undefined) return UNTRUSTED_CHAIN.has(authorizationError) ? "unknown_ca" : "bad_certificate";
  if (code === "ERR_SSL_HTTP_REQUEST") return "plain_http";
  if (code !== undefined && CLIENT_REFUSED_OURS.test(code)) return "server_certificate_refused";
  return "handshake_other";
}

export const HANDSHAKE_HINTS: Record<TlsHandshakeFailureReason, string> = {
  no_client_certificate: "the client sent no certificate: give it one signed by the clientCAFile (kube-scheduler: tlsConfig.certFile)",
  unknown_ca: "the client's certificate is not signed by the clientCAFile",
  bad_certificate: "the client's certificate is signed by the clientCAFile but not valid (expired, not yet valid, or not for client use)",
  server_certificate_refused:
    "the client refused hvx's certificate: check its CA bundle (kube-scheduler: tlsConfig.caFile; webhook: caBundle) and that the name it dials (tlsConfig.serverName) is in the certificate",
  plain_http: "the client speaks plain HTTP to this HTTPS port (urlPrefix http://)",
  client_name_not_allowed:
    "the client's certificate is signed by the clientCAFile but none of its names (SAN DNS/URI, CN) is in server.tls.allowedClientNames",
  handshake_other: "the peer closed the connection or shares no protocol version or cipher with hvx",
};

export interface HandshakeErrorWatch {
  readonly listener: ListenerName;
  readonly log: Logger;
  readonly metrics?: TlsHandshakeMetrics;
  /** Milliseconds; default Date.now. */
  readonly clock?: () => number;
}

/**
 * Logs (rate-limited) and counts every failed handshake on `server`: kube-scheduler and the
 * API server report only "EOF" or "connection reset", so this is where the cause shows.
 */
export function watchTlsHandshakeErrors(server: TlsServer, o: HandshakeErrorWatch): void {
  const limiter = new RateLimited(HANDSHAKE_LOG_INTERVAL_MS, o.clock ?? Date.now);
  o.metrics?.watch(o.listener);
  // Reading the address now caches it on the TCP socket (see peerAddress).
  server.on("connection", (tcp: Socket) => void tcp.remoteAddress);
  server.on("tlsClientError", (err: NodeJS.ErrnoException, socket: TLSSocket) => {
    const authorizationError = socket.authorizationError ? String(socket.authorizationError) : undefined;
    const reason = classifyTlsHandshakeError(err.code, authorizationError);
    o.metrics?.count(o.listener, reason);
    const peer = peerAddress(socket);
    const suppressed = limiter.allow(`${reason} ${peer}`);
    if (suppressed === undefined) return;
    o.log.warn(
      {
        listener: o.listener,
        peer,
        reason,
        error: authorizationError ?? err.code ?? err.message,
        suppressed,
        hint: HANDSHAKE_HINTS[reason],
      },
      `TLS handshake failed on the ${o.listener} port`,
    );
  });
}

/**
 * The peer's address. When hvx refuses a client certificate Node destroys the TLS socket
 * before `tlsClientError`, which empties its address; the TCP socket under it (`_parent`, no
 * public accessor) keeps the address read when the connection arrived.
 */
function peerAddress(socket: TLSSocket): string {
  const tcp = (socket as unknown as { _parent?: Socket | null })._parent;
  return socket.remoteAddress ?? tcp?.remoteAddress ?? "unknown";
}
