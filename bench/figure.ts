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
