import { extenderAddress, type Config } from "../config/index.js";
import type { Logger } from "../observability/logger.js";
import type { RefusalCounter } from "../observability/refusal-metrics.js";
import type { TlsHandshakeMetrics } from "../observability/tls-handshake-metrics.js";
import { buildExtenderApp } from "../server/extender-app.js";
import type { ExtenderHandlers } from "../server/extender-handlers.js";
import { startListener } from "../server/start-listener.js";
import type { ServedPort } from "./listener-group.js";
import type { HealthChecks } from "./start-health-checks.js";

export interface ExtenderServerWiring {
  readonly config: Readonly<Config>;
  readonly handlers: ExtenderHandlers;
  readonly health: HealthChecks;
  readonly countRefusal: RefusalCounter;
  readonly handshakeMetrics: TlsHandshakeMetrics;
  readonly log: Logger;
}

/** The extender port (`server.port`, HTTPS with `server.tls`): kube-scheduler's verbs and health, nothing else. */
export async function startExtenderServer(w: ExtenderServerWiring): Promise<ServedPort> {
  const { config, handlers, log } = w;
  const host = extenderAddress(config);
  const listener = await startListener({
    name: "extender",
    portKey: "server.port",
    port: config.server.port,
    ...(host !== undefined ? { host, hostKey: "server.address" } : {}),
    handshakeMetrics: w.handshakeMetrics,
    handler: buildExtenderApp({
      handlers,
      bodyLimitMB: config.server.bodyLimitMB,
      readiness: w.health.ready,
      liveness: w.health.alive,
      onRefuse: (reason) => w.countRefusal("extender", reason),
    }),
    ...(config.server.tls ? { tls: config.server.tls, tlsKey: "server.tls" } : {}),
    ...(config.server.tls?.allowedClientNames ? { allowedClientNames: config.server.tls.allowedClientNames } : {}),
    log,
  });
  const announce = () =>
    log.info(
      { address: host, port: listener.port, tls: listener.tls, clientCertificates: config.server.tls?.clientCAFile !== undefined },
      `extender listening (${Object.keys(handlers)
        .map((v) => `POST /${v}`)
        .join(", ")}, GET /healthz, /readyz)`,
    );
  return { listener, announce };
}
