/** One measured benchmark figure; `target` is informative, the runner prints the ratio. */
export interface BenchFigure {
  /** Dotted name, e.g. `filter.nodenames.500.p99Ms`. */
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** Human-readable target, e.g. `<= 5`. */
  readonly target?: string;
  /** True when the target is met; undefined when there is no target. */
  readonly ok?: boolean;
}

/** A benchmark module exports `run(): Promise<BenchFigure[]>` and prints nothing itself. */
export type BenchRun = () => Promise<BenchFigure[]>;

/** Percentile (0..100) of an already sorted array, nearest-rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Wall time of one call, ms. */
export function timeMs(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/**
 * Calls `fn` `warmup` times, then times it for about `budgetMs` and at least `minRuns` times.
 * Returns the durations (ms), sorted.
 */
export function sampleMs(fn: () => void, budgetMs: number, minRuns = 30, warmup = 20): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  const end = performance.now() + budgetMs;
  while (out.length < minRuns || performance.now() < end) out.push(timeMs(fn));
  return out.sort((a, b) => a - b);
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Thrown by a benchmark that cannot run here; the runner prints `skipped: <message>` and counts no miss. */
export class BenchSkipped extends Error {}
