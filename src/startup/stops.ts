import type { Logger } from "../observability/logger.js";

export type Stop = () => Promise<void> | void;

/** Runs the stops in reverse order of registration; one failing stop never keeps the rest from running. */
export function stopInReverse(stops: Stop[], log: Logger): () => Promise<void> {
  return async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        log.warn({ err }, "error while stopping");
      }
    }
  };
}
