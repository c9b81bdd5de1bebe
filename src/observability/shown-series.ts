import type { Gauge } from "prom-client";

/**
 * The series of a scrape-time gauge with one series per key (a node), set to 1: each scrape
 * removes and sets only the keys whose labels changed. Setting thousands of series again on
 * every scrape held the event loop for tens of milliseconds.
 */
export class ShownSeries<L extends string> {
  private readonly shown = new Map<string, Record<L, string>>();

  constructor(private readonly gauge: Gauge<L>) {}

  /** Makes the gauge's series those of `now` (key -> labels). */
  show(now: ReadonlyMap<string, Record<L, string>>): void {
    for (const [key, labels] of this.shown) {
      if (sameLabels(now.get(key), labels)) continue;
      this.gauge.remove(labels);
      this.shown.delete(key);
    }
    for (const [key, labels] of now) {
      if (this.shown.has(key)) continue;
      this.gauge.set(labels, 1);
      this.shown.set(key, labels);
    }
  }
}

function sameLabels<L extends string>(a: Record<L, string> | undefined, b: Record<L, string>): boolean {
  if (a === undefined) return false;
  for (const name in b) if (a[name] !== b[name]) return false;
  return true;
}
