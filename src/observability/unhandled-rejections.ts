import { Counter, type Registry } from "prom-client";
import type { Logger } from "./logger.js";

/**
 * A process-wide `unhandledRejection` handler: logs the rejection (first line and a few stack
 * frames, never request objects) and counts it in `hvx_unhandled_rejections_total`, and keeps
 * the process running. Without any handler, Node ends the process on the first unhandled
 * rejection, so one library bug on a rare path (a watch reconnect whose credentials fail)
 * would take the extender down. Each one is a bug to fix: the counter is there to alert on.
 * Returns the function that removes the handler.
 */
export function installUnhandledRejectionHandler(log: Logger, registry: Registry): () => void {
  const counter = new Counter({
    name: "hvx_unhandled_rejections_total",
    help: "Promise rejections nothing handled (each one a bug); logged, and hvx keeps running",
    registers: [registry],
  });
  const handler = (reason: unknown): void => {
    counter.inc();
    log.error({ error: describe(reason) }, "unhandled promise rejection; hvx keeps running");
  };
  process.on("unhandledRejection", handler);
  return () => {
    process.off("unhandledRejection", handler);
  };
}

function describe(reason: unknown): string {
  if (reason instanceof Error) {
    const frames = (reason.stack ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.startsWith("at "))
      .slice(0, 5);
    return [`${reason.name}: ${reason.message.split("\n")[0]}`, ...frames].join(" | ").slice(0, 1000);
  }
  return String(reason).split("\n")[0]!.slice(0, 300);
}
