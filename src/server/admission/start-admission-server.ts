import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { Registry } from "prom-client";
import type { Config } from "../../config/schema.js";
import type { FleetView } from "../../oversell/fleet-view.js";
import { createAdmissionMetrics } from "../../observability/admission-metrics.js";
import type { Logger } from "../../observability/logger.js";
import type { TlsHandshakeMetrics } from "../../observability/tls-handshake-metrics.js";
import type { Refusal, RefusalCounter } from "../../observability/refusal-metrics.js";
import { BodyBudget, MIB, readBody, refuseEncodedBody, sendJsonError } from "../request-body.js";
import { startListener } from "../start-listener.js";
import { type AdmissionContext, handleAdmissionReview } from "./handle-admission-review.js";

export const MUTATE_PATH = "/mutate";
/** The API server refuses a request body over 3 MB itself, so no review it sends is larger. Default of `admission.bodyLimitMB`. */
export const DEFAULT_BODY_LIMIT_BYTES = 3 * MIB;

export interface AdmissionServerDeps {
  readonly config: Config["admission"];
  readonly ownNamespace: string;
  /** The fleet for the stacked cap and the hot-host brake (see `LastKnownFleet`); undefined: no host data yet. */
  readonly fleet: () => FleetView | undefined;
  readonly namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
  /** Whether the informer cache knows a namespace (undefined: no synced cache); bounds the metrics' namespace label. */
  readonly knownNamespace?: (namespace: string) => boolean | undefined;
  readonly log: Logger;
  readonly registry: Registry;
  /** Milliseconds; only for the handling-time metric. Default `performance.now`. */
  readonly clock?: () => number;
  /** Overrides `config.port` (tests pass 0 for an ephemeral port). */
  readonly port?: number;
  /** Overrides `config.address` (listen address; default all interfaces). Tests use 127.0.0.1. */
  readonly host?: string;
  /** Counts failed TLS handshakes (`hvx_tls_handshake_failures_total{listener="admission"}`). */
  readonly handshakeMetrics?: TlsHandshakeMetrics;
  /** How often the certificate files are checked for changes. Default 10 s. */
  readonly certReloadIntervalMs?: number;
  /** Overrides `config.bodyLimitMB`. */
  readonly bodyLimitBytes?: number;
  /** Counts requests refused before handling (413, 415, 503). */
  readonly countRefusal?: RefusalCounter;
  /** Counts would-be patches in observe mode (`hvx_shadow_decisions_total`). */
  readonly shadow?: { countShadow(verb: string, verdict: string, reason: string): void };
}

export interface RunningAdmissionServer {
  readonly port: number;
  /** Checks the certificate files now (normally done on a timer); true when a new pair was applied. */
  reloadCertificate(): Promise<boolean>;
  /** notAfter of the certificate served now, epoch ms; undefined on plain HTTP. */
  certificateNotAfterMs(): number | undefined;
  /** From now on every response closes its connection (shutdown). */
  drain(): void;
  /** Stops accepting; in-flight reviews get `graceMs` (default 10 s) to finish. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts the webhook listener: `POST /mutate`, HTTPS with `config.tls` (reloading the pair
 * when the files change), plain HTTP without it (development only, logged as such).
 * Rejects when the TLS files cannot be read or do not form a valid pair.
 */
export async function startAdmissionServer(deps: AdmissionServerDeps): Promise<RunningAdmissionServer> {
  const ctx: AdmissionContext = {
    policy: deps.config,
    ownNamespace: deps.ownNamespace,
    fleet: deps.fleet,
    namespaceLabels: deps.namespaceLabels,
    log: deps.log,
    metrics: createAdmissionMetrics(deps.registry, deps.knownNamespace ? { knownNamespace: deps.knownNamespace } : {}),
    clock: deps.clock ?? (() => performance.now()),
    ...(deps.config.mode ? { mode: deps.config.mode } : {}),
    ...(deps.shadow ? { shadow: deps.shadow } : {}),
  };
  const limitBytes = deps.bodyLimitBytes ?? deps.config.bodyLimitMB * MIB;
  const budget = new BodyBudget(4 * limitBytes);
  const tls = deps.config.tls;
  if (!tls) deps.log.warn("admission: no admission.tls configured, serving plain HTTP (development mode; the API server requires HTTPS)");
  const host = deps.host ?? deps.config.address;
  const listener = await startListener({
    name: "admission",
    portKey: "admission.port",
    port: deps.port ?? deps.config.port,
    ...(host !== undefined ? { host, hostKey: "admission.address" } : {}),
    ...(deps.handshakeMetrics ? { handshakeMetrics: deps.handshakeMetrics } : {}),
    handler: (req, res) =>
      route(req, res, ctx, limitBytes, budget, deps.countRefusal ? (reason) => deps.countRefusal!("admission", reason) : undefined),
    ...(tls ? { tls, tlsKey: "admission.tls" } : {}),
    log: deps.log,
    ...(deps.certReloadIntervalMs !== undefined ? { certReloadIntervalMs: deps.certReloadIntervalMs } : {}),
    requestTimeoutMs: 10_000,
  });
  return {
    port: listener.port,
    reloadCertificate: () => listener.reloadCertificate(),
    certificateNotAfterMs: () => listener.certificateNotAfterMs(),
    drain: () => listener.drain(),
    close: (graceMs) => listener.close(graceMs),
  };
}

function route(
  req: IncomingMessage,
  res: ServerResponse,
  ctx: AdmissionContext,
  limitBytes: number,
  budget: BodyBudget,
  onRefuse: ((reason: Refusal) => void) | undefined,
): void {
  if (refuseEncodedBody(req, res, onRefuse)) return;
  const path = (req.url ?? "").split("?")[0];
  if (path !== MUTATE_PATH) return reply(res, 404, `no route ${path ?? ""}; the webhook path is ${MUTATE_PATH}\n`);
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    return reply(res, 405, `${MUTATE_PATH} accepts POST only\n`);
  }
  void readBody(req, res, { limitBytes, limitKey: "admission.bodyLimitMB", budget, ...(onRefuse ? { onRefuse } : {}) })
    .then((text) => {
      if (text === undefined) return;
      const out = handleAdmissionReview(text, ctx);
      res.writeHead(out.status, { "Content-Type": out.contentType });
      res.end(out.body);
    })
    .catch((err: unknown) => {
      ctx.log.error({ err: err instanceof Error ? err.message : String(err) }, "admission: request failed");
      if (!res.headersSent) sendJsonError(res, 500, "internal error");
      else res.destroy();
    });
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  res.end(text);
}
