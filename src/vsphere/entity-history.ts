/**
 * One entity's historical samples, kept as columns: a row per sample end time and, per counter,
 * one array of values by row. A warm start holds ten hosts' day and week at a time (about 120 000
 * samples); a Map of values per sample made each group hundreds of thousands of objects that lived
 * through the young generation's scavenges (20-150 ms each, 88 over 20 ms in one warm start) and
 * then filled the old one. Rows are read column by column (`perf-samples.ts`, `historySamples`):
 * building a Map per row read was a quarter of a warm start's CPU.
 */
export class EntityHistory {
  /** Sample end time (vCenter's clock, epoch ms) -> row, in the order first seen. */
  private readonly rowOf = new Map<number, number>();
  private readonly intervalS: number[] = [];
  /** Counter name -> value by row; a hole is a sample that did not carry the counter. */
  private readonly columns = new Map<string, number[]>();

  /** The row of the sample ending at `atMs`, added if new; a later answer's interval wins. */
  row(atMs: number, intervalS: number): number {
    let row = this.rowOf.get(atMs);
    if (row === undefined) this.rowOf.set(atMs, (row = this.rowOf.size));
    this.intervalS[row] = intervalS;
    return row;
  }

  /** Sets a counter's value in a row (a later answer's value wins). */
  set(row: number, counter: string, value: number): void {
    let column = this.columns.get(counter);
    if (!column) this.columns.set(counter, (column = []));
    column[row] = value;
  }

  /** Sample end times, in the order first seen. */
  times(): IterableIterator<number> {
    return this.rowOf.keys();
  }

  /** The row of the sample ending at `atMs`; undefined when there is none. */
  rowAt(atMs: number): number | undefined {
    return this.rowOf.get(atMs);
  }

  /** The interval of a row's sample, s. */
  intervalSAt(row: number): number {
    return this.intervalS[row]!;
  }

  /** A counter's values by row (a hole: that sample did not carry it); undefined when no sample did. */
  column(counter: string): ReadonlyArray<number | undefined> | undefined {
    return this.columns.get(counter);
  }
}
