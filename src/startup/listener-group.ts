import { IN_FLIGHT_GRACE_MS, type RunningListener } from "../server/start-listener.js";
import type { Stop } from "./stops.js";

type Closable = Pick<RunningListener, "drain" | "close">;

/** A bound listener and its "listening" line. */
export interface ServedPort<L extends Closable = RunningListener> {
  readonly listener: L;
  readonly announce: () => void;
}

/**
 * hvx's listeners (extender, admin, admission). They close together, one in-flight grace for
 * all, before anything they use stops; their "listening" lines are logged only once every one is
 * bound, so that a port in use fails start-up before anything is announced.
 */
export class ListenerGroup {
  private readonly listeners: Closable[] = [];
  private readonly announcements: Array<() => void> = [];

  constructor(stops: Stop[]) {
    stops.push(() => Promise.all(this.listeners.map((l) => l.close(IN_FLIGHT_GRACE_MS))).then(() => undefined));
  }

  /** A bound listener, and its "listening" line for `announceAll`. */
  add(served: ServedPort<Closable>): void {
    this.listeners.push(served.listener);
    this.announcements.push(served.announce);
  }

  announceAll(): void {
    for (const line of this.announcements) line();
  }

  /** From now on every response closes its connection (shutdown). */
  drainAll(): void {
    for (const l of this.listeners) l.drain();
  }
}
