import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { Registry } from "prom-client";
import type { Config } from "../../config/schema.js";
import type { FleetView } from "../../oversell/fleet-view.js";
import { createAdmissionMetrics } from "../../observability/admission-metrics.js";
import type { Logger } from "../../observability/logger.js";
import { CertificateReloader, readKeyPair } from "./certificate-reloader.js";
import { type AdmissionContext, handleAdmissionReview } from "./handle-admission-review.js";

export const MUTATE_PATH = "/mutate";
/** Reviews carry the object (and on UPDATE the old one); etcd objects are at most ~1.5 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 6 * 1024 * 1024;

export interface AdmissionServerDeps {
  readonly config: Config["admission"];
  readonly ownNamespace: string;
  /** The fleet for the stacked cap and the hot-host brake (see `LastKnownFleet`); undefined: no host data yet. */
  readonly fleet: () => FleetView | undefined;
  readonly namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
  readonly log: Logger;
  readonly registry: Registry;
  /** Milliseconds; only for the handling-time metric. Default `performance.now`. */
  readonly clock?: () => number;
  /** Overrides `config.port` (tests pass 0 for an ephemeral port). */
  readonly port?: number;
  /** Listen address; default all interfaces. Tests use 127.0.0.1. */
  readonly host?: string;
  /** How often the certificate files are checked for changes. Default 10 s. */
  readonly certReloadIntervalMs?: number;
  readonly bodyLimitBytes?: number;
}

export interface RunningAdmissionServer {
  readonly port: number;
  /** Checks the certificate files now (normally done on a timer); true when a new pair was applied. */
  reloadCertificate(): Promise<boolean>;
  close(): Promise<void>;
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
    metrics: createAdmissionMetrics(deps.registry),
    clock: deps.clock ?? (() => performance.now()),
  };
  const limit = deps.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const listener = (req: IncomingMessage, res: ServerResponse): void => route(req, res, ctx, limit);
  const tls = deps.config.tls;
  let server: Server;
  let reloader: CertificateReloader | undefined;
  if (tls) {
    const pair = await readKeyPair(tls);
    const httpsServer = createHttpsServer({ cert: pair.cert, key: pair.key, minVersion: "TLSv1.2" }, listener);
    reloader = new CertificateReloader(tls, (p) => httpsServer.setSecureContext({ cert: p.cert, key: p.key, minVersion: "TLSv1.2" }), deps.log, deps.certReloadIntervalMs ?? 10_000);
    await reloader.start();
    server = httpsServer;
  } else {
    deps.log.warn("admission: no admission.tls configured, serving plain HTTP (development mode; the API server requires HTTPS)");
    server = createHttpServer(listener);
  }
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(deps.port ?? deps.config.port, deps.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  deps.log.info({ port, tls: tls !== undefined, path: MUTATE_PATH }, "admission: webhook listening");
  return {
    port,
    reloadCertificate: async () => (reloader ? reloader.check() : false),
    close: async () => {
      reloader?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function route(req: IncomingMessage, res: ServerResponse, ctx: AdmissionContext, limit: number): void {
  const path = (req.url ?? "").split("?")[0];
  if (path !== MUTATE_PATH) return reply(res, 404, `no route ${path ?? ""}; the webhook path is ${MUTATE_PATH}\n`);
  if (req.method !== "POST") {
    res.setHeader("Allow", "POST");
    return reply(res, 405, `${MUTATE_PATH} accepts POST only\n`);
  }
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) return tooLarge(req, res, limit);
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  req.on("data", (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > limit) {
      done = true;
      tooLarge(req, res, limit);
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (done) return;
    done = true;
    const out = handleAdmissionReview(Buffer.concat(chunks).toString("utf8"), ctx);
    res.writeHead(out.status, { "Content-Type": out.contentType });
    res.end(out.body);
  });
  req.on("error", () => {
    done = true;
  });
}

/** 413 and close the connection; the rest of the body is drained, not buffered. */
function tooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  req.resume();
  res.setHeader("Connection", "close");
  reply(res, 413, `request body larger than ${limit} bytes\n`);
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  res.end(text);
}
