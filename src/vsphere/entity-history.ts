import type { EntitySample } from "./perf-samples.js";

/**
 * One entity's historical samples, kept as columns: a row per sample end time and, per counter,
 * one array of values by row. A warm start holds ten hosts' day and week at a time (about 120 000
 * samples); a Map of values per sample made each group hundreds of thousands of objects that lived
 * through the young generation's scavenges (20-150 ms each, 88 over 20 ms in one warm start) and
 * then filled the old one. A sample is built as an `EntitySample` only when it is read.
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

  /** The sample ending at `atMs` with the counters it carries; undefined when there is none. */
  sampleAt(atMs: number): EntitySample | undefined {
    const row = this.rowOf.get(atMs);
    if (row === undefined) return undefined;
    const values = new Map<string, number>();
    for (const [counter, column] of this.columns) {
      const value = column[row];
      if (value !== undefined) values.set(counter, value);
    }
    return { sampledAtMs: atMs, intervalS: this.intervalS[row]!, values };
  }
}
