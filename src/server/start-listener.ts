import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Logger } from "../observability/logger.js";
import type { TlsHandshakeMetrics, ListenerName } from "../observability/tls-handshake-metrics.js";
import { certificateNotAfterMs } from "./certificate-not-after.js";
import { certificateValidityProblem } from "./certificate-validity.js";
import { CertificateReloader, type KeyPairFiles, readKeyPair, secureContextOptions } from "./certificate-reloader.js";
import { refuseUnlistedClients } from "./client-name-gate.js";
import { watchTlsHandshakeErrors } from "./tls-handshake-errors.js";

/** How long in-flight requests may take to finish once a listener closes. */
export const IN_FLIGHT_GRACE_MS = 10_000;

export interface ListenerOptions {
  /** For logs and the handshake metric's `listener` label. */
  readonly name: ListenerName;
  /** Config key of the port, named when it cannot be bound (`server.port`). */
  readonly portKey: string;
  readonly port: number;
  /** Listen address; default all interfaces. Tests use 127.0.0.1. */
  readonly host?: string;
  /** Config key of the address, named when it cannot be bound (`server.address`). */
  readonly hostKey?: string;
  readonly handler: RequestListener;
  /** HTTPS with these files (reloaded when they change); `clientCAFile` requires a client certificate signed by it. */
  readonly tls?: KeyPairFiles;
  /** With `tls.clientCAFile`: a client certificate must also carry one of these names (SAN DNS/URI or CN). */
  readonly allowedClientNames?: readonly string[];
  /** Config key of the TLS files, named in errors (`server.tls`). */
  readonly tlsKey?: string;
  readonly log: Logger;
  /** Counts failed TLS handshakes (`hvx_tls_handshake_failures_total`); they are logged either way. */
  readonly handshakeMetrics?: TlsHandshakeMetrics;
  /** The clock a reloaded certificate's validity is checked against (epoch ms); default Date.now. */
  readonly certClock?: () => number;
  /** How often the certificate files are checked for changes. Default 10 s. */
  readonly certReloadIntervalMs?: number;
  /** Whole request (headers and body) must arrive within this. Default 30 s. */
  readonly requestTimeoutMs?: number;
}

export interface RunningListener {
  readonly port: number;
  readonly tls: boolean;
  /** Checks the certificate files now (normally done on a timer); true when a new pair was applied. */
  reloadCertificate(): Promise<boolean>;
  /** notAfter of the certificate served now, epoch ms; undefined on plain HTTP. */
  certificateNotAfterMs(): number | undefined;
  /** From now on every response closes its connection, so that clients reconnect elsewhere. */
  drain(): void;
  /** Stops accepting connections; in-flight requests get `graceMs` to finish, then every connection is closed. */
  close(graceMs?: number): Promise<void>;
}

/** What to do about a port that cannot be bound: the key to change and how to give hvx a config file. */
function bindHint(code: string | undefined, portKey: string): string {
  const why = code === "EADDRINUSE" ? "another process holds it" : code === "EACCES" ? "this user may not bind it" : undefined;
  if (why === undefined) return "";
  return ` (${why}): set ${portKey} to a free port in a config file and start with \`npm start -- --config FILE\` (hvx serve --config FILE)`;
}

/**
 * Starts one HTTP or HTTPS listener. Rejects with a message naming the config key when the
 * port cannot be bound or the TLS files cannot be used.
 */
export async function startListener(o: ListenerOptions): Promise<RunningListener> {
  let draining = false;
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (draining) res.setHeader("Connection", "close");
    o.handler(req, res);
  };
  let server: Server;
  let reloader: CertificateReloader | undefined;
  let notAfterMs: number | undefined;
  if (o.tls) {
    const tlsKey = o.tlsKey ?? `${o.name}.tls`;
    const pair = await readKeyPair(o.tls, tlsKey);
    const mutual = o.tls.clientCAFile !== undefined;
    const httpsServer = createHttpsServer({ ...secureContextOptions(pair), requestCert: mutual, rejectUnauthorized: mutual }, handler);
    notAfterMs = certificateNotAfterMs(pair.cert);
    // Served anyway (there is no other to serve); said at once rather than by the clients' handshake errors.
    const startProblem = certificateValidityProblem(pair.cert, (o.certClock ?? Date.now)());
    if (startProblem)
      o.log.warn(
        { listener: o.name, key: tlsKey, problem: startProblem },
        `${tlsKey}: ${o.tls.certFile} is ${startProblem === "expired" ? "expired" : "not yet valid"}; clients refuse it until the file is replaced (it is reloaded when it changes)`,
      );
    const apply = (p: typeof pair) => {
      httpsServer.setSecureContext(secureContextOptions(p));
      notAfterMs = certificateNotAfterMs(p.cert);
    };
    watchTlsHandshakeErrors(httpsServer, {
      listener: o.name,
      log: o.log,
      ...(o.handshakeMetrics ? { metrics: o.handshakeMetrics } : {}),
    });
    if (mutual && o.allowedClientNames !== undefined)
      refuseUnlistedClients(httpsServer, {
        listener: o.name,
        allowed: o.allowedClientNames,
        log: o.log,
        ...(o.handshakeMetrics ? { metrics: o.handshakeMetrics } : {}),
      });
    const metrics = o.handshakeMetrics;
    reloader = new CertificateReloader(o.tls, apply, o.log, o.certReloadIntervalMs ?? 10_000, tlsKey, {
      ...(o.certClock ? { clock: o.certClock } : {}),
      ...(metrics?.countRefusedReload ? { onRefused: (problem) => metrics.countRefusedReload!(o.name, problem) } : {}),
    });
    await reloader.start();
    server = httpsServer;
  } else {
    server = createHttpServer(handler);
  }
  server.requestTimeout = o.requestTimeoutMs ?? 30_000;
  server.headersTimeout = Math.min(server.requestTimeout, 10_000);
  const where = o.host === undefined ? `port ${o.port}` : `${o.host} port ${o.port}`;
  const keys = o.host !== undefined && o.hostKey !== undefined ? `${o.hostKey}, ${o.portKey}` : o.portKey;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", (err: NodeJS.ErrnoException) =>
        reject(new Error(`cannot listen on ${where} (${keys}): ${err.code ?? err.message}${bindHint(err.code, o.portKey)}`)),
      );
      server.listen(o.port, o.host, () => resolve());
    });
  } catch (err) {
    reloader?.stop();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    tls: o.tls !== undefined,
    reloadCertificate: async () => (reloader ? reloader.check() : false),
    certificateNotAfterMs: () => notAfterMs,
    drain: () => {
      draining = true;
    },
    close: (graceMs = IN_FLIGHT_GRACE_MS) => {
      reloader?.stop();
      draining = true;
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
