import { Counter, type Registry } from "prom-client";

/**
 * Why a TLS handshake failed, as a closed set (the `reason` label):
 * - `no_client_certificate`: mutual TLS, and the client sent no certificate;
 * - `unknown_ca`: its certificate does not chain to the client CA (`clientCAFile`);
 * - `bad_certificate`: its certificate chains but is not valid (expired, not yet valid, wrong use);
 * - `server_certificate_refused`: the client refused hvx's certificate (an alert: unknown CA,
 *   bad certificate, e.g. the name it dialled is not in the certificate);
 * - `plain_http`: the client spoke plain HTTP to the TLS port (`urlPrefix: http://`);
 * - `client_name_not_allowed`: its certificate chains, but none of its names is in `allowedClientNames`;
 * - `handshake_other`: anything else (a peer that hangs up mid-handshake, no shared protocol or cipher).
 */
export const TLS_HANDSHAKE_FAILURE_REASONS = [
  "no_client_certificate",
  "unknown_ca",
  "bad_certificate",
  "server_certificate_refused",
  "plain_http",
  "client_name_not_allowed",
  "handshake_other",
] as const;
export type TlsHandshakeFailureReason = (typeof TLS_HANDSHAKE_FAILURE_REASONS)[number];

/** hvx's listeners; `extender` (server.tls) and `admission` (admission.tls) may serve TLS. */
export type ListenerName = "extender" | "admin" | "admission";

export interface TlsHandshakeMetrics {
  /** Creates the listener's series at 0, so that `increase()` sees its first failure. */
  watch(listener: ListenerName): void;
  count(listener: ListenerName, reason: TlsHandshakeFailureReason): void;
  /** A rotated certificate outside its validity window, not served (`hvx_tls_certificate_reloads_refused_total`). */
  countRefusedReload?(listener: ListenerName, problem: "expired" | "not_yet_valid"): void;
}

/** `hvx_tls_handshake_failures_total{listener, reason}`. */
export function createTlsHandshakeMetrics(registry: Registry): TlsHandshakeMetrics {
  const failures = new Counter({
    name: "hvx_tls_handshake_failures_total",
    help:
      "TLS handshakes refused or failed on a TLS listener (extender, admission), by reason: no_client_certificate, " +
      "unknown_ca, bad_certificate, server_certificate_refused, plain_http, client_name_not_allowed, handshake_other.",
    labelNames: ["listener", "reason"] as const,
    registers: [registry],
  });
  const refusedReloads = new Counter({
    name: "hvx_tls_certificate_reloads_refused_total",
    help: "Rotated TLS certificates not served because they are expired or not yet valid (the previous one is kept), by listener and problem.",
    labelNames: ["listener", "problem"] as const,
    registers: [registry],
  });
  return {
    countRefusedReload: (listener, problem) => refusedReloads.inc({ listener, problem }),
    watch: (listener) => {
      for (const reason of TLS_HANDSHAKE_FAILURE_REASONS) failures.inc({ listener, reason }, 0);
    },
    count: (listener, reason) => failures.inc({ listener, reason }),
  };
}
