import type { Config } from "../config/index.js";
import type { SourceStatus } from "../model/metrics-source.js";
import { EventLoopWatch, type Liveness } from "../server/liveness.js";
import { pollCycleEnded, ReadinessGate, type Readiness } from "../server/readiness.js";
import type { Stop } from "./stops.js";

export interface HealthChecks {
  /** `/healthz`: alive while the event loop is not blocked. */
  readonly alive: () => Liveness;
  /** `/readyz`: ready once the first poll cycle ended (or the grace passed), until shutdown begins. */
  readonly ready: () => Readiness;
  readonly readiness: ReadinessGate;
}

/** The event-loop watch behind liveness, and the readiness gate every listener answers from. */
export function startHealthChecks(
  config: Readonly<Config>,
  startedAtMs: number,
  poller: { status(): SourceStatus },
  stops: Stop[],
): HealthChecks {
  const loop = new EventLoopWatch();
  loop.start();
  stops.push(() => loop.stop());
  const alive = () => loop.current();
  const readiness = new ReadinessGate({
    startedAtMs,
    graceSeconds: config.server.readinessGraceSeconds,
    firstPollEnded: () => pollCycleEnded(poller.status()),
    liveness: alive,
  });
  return { alive, ready: () => readiness.current(), readiness };
}
