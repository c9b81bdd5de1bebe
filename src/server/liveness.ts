import { performance } from "node:perf_hooks";

/** Share of the window the event loop may spend blocked before `/healthz` answers 503. */
export const MAX_BLOCKED_FRACTION = 0.5;
/** Window over which blocked time is summed: the kubelet probes 3 times in it (manifests/base/deployment.yaml). */
export const LIVENESS_WINDOW_MS = 30_000;
/** How often the loop's timer drift is measured. */
export const LOOP_CHECK_INTERVAL_MS = 500;

export interface LoopDelaySample {
  /** Monotonic ms when the check ran. */
  readonly atMs: number;
  /** How late it ran, ms: time the loop could not run anything else. */
  readonly delayMs: number;
}

export interface Liveness {
  readonly alive: boolean;
  /** Text for the /healthz body. */
  readonly reason: string;
}

/**
 * `/healthz`: dead when the event loop was blocked for more than `maxBlockedFraction` of the
 * last `windowMs` (the sum of the timer delays measured in it). A fully hung loop answers no
 * probe at all, and the kubelet's probe timeout catches it; this catches a loop that still
 * answers now and then but is blocked seconds at a time, so that kube-scheduler's calls wait
 * out their httpTimeout while an occasional probe gets through. Always divided by the whole
 * window, so a slow start (module loading, first sync) does not count as a stall.
 */
export function decideLiveness(
  samples: readonly LoopDelaySample[],
  nowMs: number,
  windowMs = LIVENESS_WINDOW_MS,
  maxBlockedFraction = MAX_BLOCKED_FRACTION,
): Liveness {
  const blockedMs = samples.filter((s) => nowMs - s.atMs < windowMs).reduce((sum, s) => sum + s.delayMs, 0);
  const windowS = Math.round(windowMs / 1000);
  const blockedS = (blockedMs / 1000).toFixed(1);
  if (blockedMs > windowMs * maxBlockedFraction)
    return { alive: false, reason: `event loop blocked ${blockedS} s of the last ${windowS} s (more than ${maxBlockedFraction * 100} %)` };
  return { alive: true, reason: "ok" };
}

/**
 * Measures how late a timer fires, every `intervalMs`, and keeps the samples of the last
 * window. `check()` is what the timer calls (tests call it with their own clock).
 */
export class EventLoopWatch {
  private samples: LoopDelaySample[] = [];
  private lastMs: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly o: {
      readonly clock?: () => number;
      readonly intervalMs?: number;
      readonly windowMs?: number;
      readonly maxBlockedFraction?: number;
    } = {},
  ) {}

  private get intervalMs(): number {
    return this.o.intervalMs ?? LOOP_CHECK_INTERVAL_MS;
  }

  private now(): number {
    return (this.o.clock ?? (() => performance.now()))();
  }

  start(): void {
    this.lastMs = this.now();
    const tick = () => {
      this.check();
      this.timer = setTimeout(tick, this.intervalMs);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Records how late this check is against the one before (due `intervalMs` after it). */
  check(): void {
    const nowMs = this.now();
    if (this.lastMs !== undefined) {
      const delayMs = Math.max(0, nowMs - this.lastMs - this.intervalMs);
      if (delayMs > 0) this.samples.push({ atMs: nowMs, delayMs });
    }
    this.lastMs = nowMs;
    const windowMs = this.o.windowMs ?? LIVENESS_WINDOW_MS;
    while (this.samples.length > 0 && nowMs - this.samples[0]!.atMs >= windowMs) this.samples.shift();
  }

  current(): Liveness {
    return decideLiveness(this.samples, this.now(), this.o.windowMs, this.o.maxBlockedFraction);
  }
}
