import { Gauge, type Registry } from "prom-client";

/** A TLS listener and the expiry of the certificate it serves now (undefined: plain HTTP or unknown). */
export interface CertificateSource {
  /** `extender` or `admission`. */
  readonly listener: string;
  /** Epoch ms. */
  readonly notAfterMs: () => number | undefined;
}

/**
 * `hvx_tls_certificate_expiry_timestamp_seconds{listener}`: notAfter of the certificate each
 * TLS listener serves, read at scrape time, so a reloaded pair shows at once. Plain-HTTP
 * listeners have no series.
 */
export function registerCertificateExpiryGauge(registry: Registry): (source: CertificateSource) => void {
  const sources: CertificateSource[] = [];
  new Gauge<"listener">({
    name: "hvx_tls_certificate_expiry_timestamp_seconds",
    help: "notAfter of the certificate served by each TLS listener (extender, admission), Unix time.",
    labelNames: ["listener"],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of sources) {
        const ms = s.notAfterMs();
        if (ms !== undefined) this.set({ listener: s.listener }, ms / 1000);
      }
    },
  });
  return (source) => {
    sources.push(source);
  };
}
