/** One would-be rejection (observe mode) as `/debug/shadow` shows it. */
export interface ShadowEntry {
  /** ISO time hvx answered. */
  readonly at: string;
  readonly verb: string;
  /** namespace/name of the pod. */
  readonly pod: string;
  /** What enforce mode would have done, e.g. `reject`, `drop`, `patch`. */
  readonly verdict: string;
  /** One line per node (`<node>: <reasons>`), or the patch that would have been applied (mutate). */
  readonly reasons: readonly string[];
}

/** The last `capacity` would-be rejections, newest last. */
export class ShadowRing {
  private readonly entries: ShadowEntry[] = [];

  constructor(readonly capacity = 100) {}

  push(entry: ShadowEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Newest first. */
  recent(): ShadowEntry[] {
    return [...this.entries].reverse();
  }
}
