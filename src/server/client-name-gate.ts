import type { Server as TlsServer, TLSSocket } from "node:tls";
import type { Logger } from "../observability/logger.js";
import { RateLimited } from "../observability/rate-limited.js";
import type { ListenerName, TlsHandshakeMetrics } from "../observability/tls-handshake-metrics.js";
import { clientCertificateNames, isAllowedClient } from "./client-names.js";
import { HANDSHAKE_HINTS, HANDSHAKE_LOG_INTERVAL_MS } from "./tls-handshake-errors.js";

/** Names shown in a refusal's log line: at most this many, each cut to this many characters. */
const LOGGED_NAMES = 4;
const LOGGED_NAME_CHARS = 80;

export interface ClientNameGate {
  readonly listener: ListenerName;
  /** `server.tls.allowedClientNames`. */
  readonly allowed: readonly string[];
  readonly log: Logger;
  readonly metrics?: TlsHandshakeMetrics;
  /** Milliseconds; default Date.now. */
  readonly clock?: () => number;
}

/**
 * Issue 28: a client certificate the CA signed is not enough; one of its names must be listed
 * (otherwise hvx's own serving certificate, or any other the CA issued, steers scheduling).
 * Runs first on every verified connection and closes it before any request is read; counted as
 * `client_name_not_allowed`, logged once per peer and minute with the (cut) names it showed.
 */
export function refuseUnlistedClients(server: TlsServer, o: ClientNameGate): void {
  const allowed = new Set(o.allowed);
  const limiter = new RateLimited(HANDSHAKE_LOG_INTERVAL_MS, o.clock ?? Date.now);
  server.prependListener("secureConnection", (socket: TLSSocket) => {
    const names = clientCertificateNames(socket.getPeerCertificate());
    if (isAllowedClient(names, allowed)) return;
    const peer = socket.remoteAddress ?? "unknown";
    socket.destroy();
    o.metrics?.count(o.listener, "client_name_not_allowed");
    const suppressed = limiter.allow(peer);
    if (suppressed === undefined) return;
    o.log.warn(
      {
        listener: o.listener,
        peer,
        reason: "client_name_not_allowed",
        names: names.slice(0, LOGGED_NAMES).map((n) => n.slice(0, LOGGED_NAME_CHARS)),
        suppressed,
        hint: HANDSHAKE_HINTS.client_name_not_allowed,
      },
      `TLS handshake failed on the ${o.listener} port`,
    );
  });
}
