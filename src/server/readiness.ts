import type { SourceStatus } from "../model/metrics-source.js";
import type { Liveness } from "./liveness.js";

export interface ReadinessInput {
  readonly nowMs: number;
  readonly startedAtMs: number;
  /** The first vCenter poll cycle has ended, whether it succeeded or failed. */
  readonly firstPollEnded: boolean;
  /** `server.readinessGraceSeconds`. */
  readonly graceSeconds: number;
  /** SIGTERM received: stop receiving traffic. */
  readonly shuttingDown: boolean;
}

export interface Readiness {
  readonly ready: boolean;
  /** Text for the /readyz body. */
  readonly reason: string;
}

/**
 * `/readyz`: ready once the first poll cycle has ended (success or failure) or the grace
 * period has passed since start, whichever comes first; not ready while shutting down.
 * Nothing else: once ready, vCenter's state never makes hvx unready (kube-scheduler and the
 * API server should keep calling hvx, which answers with no opinion when it knows nothing).
 */
export function decideReadiness(i: ReadinessInput): Readiness {
  if (i.shuttingDown) return { ready: false, reason: "shutting down" };
  if (i.firstPollEnded) return { ready: true, reason: "ok" };
  const waitedS = Math.max(0, (i.nowMs - i.startedAtMs) / 1000);
  if (waitedS >= i.graceSeconds)
    return { ready: true, reason: "ok (first vCenter poll cycle still running after server.readinessGraceSeconds)" };
  return {
    ready: false,
    reason: `starting: waiting for the first vCenter poll cycle (at most ${Math.ceil(i.graceSeconds - waitedS)} s more)`,
  };
}

/** Whether a poll cycle has ended, from the poller's status: it succeeded once, or it failed. */
export function pollCycleEnded(status: SourceStatus): boolean {
  return status.lastSuccessMs !== undefined || status.consecutiveFailures > 0;
}

/**
 * The readiness state of one process: latches "first poll ended" (a later status never
 * takes it back) and the shutdown flag. With `liveness`, a stalled event loop is not ready
 * either: the Service stops sending it calls (after 2 readiness probes, ~10 s) before the
 * liveness probe restarts it, and with every replica stalled kube-scheduler's calls fail at
 * once instead of waiting out httpTimeout.
 */
export class ReadinessGate {
  private pollEnded = false;
  private stopping = false;

  constructor(
    private readonly o: {
      readonly startedAtMs: number;
      readonly graceSeconds: number;
      readonly firstPollEnded: () => boolean;
      readonly clock?: () => number;
      readonly liveness?: () => Liveness;
    },
  ) {}

  current(): Readiness {
    if (!this.pollEnded && this.o.firstPollEnded()) this.pollEnded = true;
    const live = this.o.liveness?.();
    if (live && !live.alive && !this.stopping) return { ready: false, reason: live.reason };
    return decideReadiness({
      nowMs: (this.o.clock ?? Date.now)(),
      startedAtMs: this.o.startedAtMs,
      firstPollEnded: this.pollEnded,
      graceSeconds: this.o.graceSeconds,
      shuttingDown: this.stopping,
    });
  }

  beginShutdown(): void {
    this.stopping = true;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }
}
