/**
 * Lets one event per key through every `intervalMs`, and counts what it held back, so a log
 * line that could fire on every request (observe mode, unmapped nodes) fires at most once per
 * key and interval. At most `maxKeys` keys are remembered (oldest forgotten first).
 */
export class RateLimited {
  private readonly last = new Map<string, { atMs: number; suppressed: number }>();

  constructor(
    private readonly intervalMs: number,
    private readonly clock: () => number,
    private readonly maxKeys = 1000,
  ) {}

  /** The number of events held back since the last one let through, or undefined to hold this one back. */
  allow(key: string): number | undefined {
    const now = this.clock();
    const seen = this.last.get(key);
    if (seen && now - seen.atMs < this.intervalMs) {
      seen.suppressed += 1;
      return undefined;
    }
    if (!seen && this.last.size >= this.maxKeys) this.last.delete(this.last.keys().next().value as string);
    this.last.set(key, { atMs: now, suppressed: 0 });
    return seen?.suppressed ?? 0;
  }
}
