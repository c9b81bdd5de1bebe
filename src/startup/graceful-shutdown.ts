import type { Config } from "../config/index.js";
import type { Logger } from "../observability/logger.js";
import type { ReadinessGate } from "../server/readiness.js";
import { IN_FLIGHT_GRACE_MS } from "../server/start-listener.js";
import type { ListenerGroup } from "./listener-group.js";

/**
 * SIGTERM: /readyz turns 503 and every response closes its connection; after
 * `server.shutdownDrainSeconds` the listeners close (in-flight requests get
 * IN_FLIGHT_GRACE_MS more), then everything else stops (`stopAll`).
 */
export function gracefulShutdown(
  config: Readonly<Config>,
  readiness: ReadinessGate,
  listeners: ListenerGroup,
  stopAll: () => Promise<void>,
  log: Logger,
): () => Promise<void> {
  return async () => {
    readiness.beginShutdown();
    listeners.drainAll();
    const drainSeconds = config.server.shutdownDrainSeconds;
    log.info({ drainSeconds }, "shutting down: /readyz answers 503; listeners close after server.shutdownDrainSeconds");
    await new Promise((r) => setTimeout(r, drainSeconds * 1000));
    log.info({ graceSeconds: IN_FLIGHT_GRACE_MS / 1000 }, "closing listeners; in-flight requests may finish");
    await stopAll();
  };
}
