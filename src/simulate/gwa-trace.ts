/**
 * One VM's usage from a GWA-T-12 per-VM CSV (the Grid Workloads Archive format of the
 * Bitbrains trace): a header line, then fields separated by `;` and a tab:
 *
 *   Timestamp [ms]; CPU cores; CPU capacity provisioned [MHZ]; CPU usage [MHZ]; CPU usage [%];
 *   Memory capacity provisioned [KB]; Memory usage [KB]; (disk and network columns, ignored)
 *
 * The published files hold seconds in the `Timestamp [ms]` column: values below 10^11 are
 * read as seconds, others as milliseconds. Rows are sorted by time; of rows with the same
 * timestamp the later one in the file wins. A row that does not parse, or whose CPU or
 * memory capacity is zero, is skipped and counted.
 */
export interface GwaTrace {
  /** Seconds, strictly increasing. */
  readonly timesS: Float64Array;
  /** CPU usage [%], capped to 0..100. */
  readonly cpuPercent: Float64Array;
  /** Memory usage / memory capacity provisioned, capped to 0..1. */
  readonly memShare: Float64Array;
  readonly skippedRows: number;
}

/** Timestamps below this are seconds (10^11 s is the year 5138; 10^11 ms is 1973). */
export const SECONDS_BELOW = 1e11;

const COL_TIME = 0;
const COL_CPU_CAPACITY = 2;
const COL_CPU_PERCENT = 4;
const COL_MEM_CAPACITY = 5;
const COL_MEM_USAGE = 6;

export class TraceError extends Error {}

/** Parses one file's text; throws TraceError naming `file` if fewer than two rows are usable. */
export function parseGwaTrace(text: string, file: string): GwaTrace {
  const lines = text.split(/\r?\n/);
  const rows: Array<{ t: number; cpu: number; mem: number; order: number }> = [];
  let skipped = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const fields = line.split(";").map((f) => f.trim());
    const nums = [COL_TIME, COL_CPU_CAPACITY, COL_CPU_PERCENT, COL_MEM_CAPACITY, COL_MEM_USAGE].map((c) =>
      fields[c] === undefined || fields[c] === "" ? NaN : Number(fields[c]),
    );
    const [t, cpuCap, cpuPct, memCap, memUse] = nums as [number, number, number, number, number];
    if (!nums.every(Number.isFinite) || t < 0 || cpuCap <= 0 || memCap <= 0) {
      skipped++;
      continue;
    }
    rows.push({
      t: t < SECONDS_BELOW ? t : t / 1000,
      cpu: Math.min(100, Math.max(0, cpuPct)),
      mem: Math.min(1, Math.max(0, memUse / memCap)),
      order: i,
    });
  }
  rows.sort((a, b) => a.t - b.t || a.order - b.order);
  const kept: typeof rows = [];
  for (const r of rows) {
    if (kept.length > 0 && kept[kept.length - 1]!.t === r.t) kept[kept.length - 1] = r;
    else kept.push(r);
  }
  if (kept.length < 2) throw new TraceError(`trace file ${file}: ${kept.length} usable row(s), at least 2 needed (${skipped} skipped)`);
  return {
    timesS: Float64Array.from(kept, (r) => r.t),
    cpuPercent: Float64Array.from(kept, (r) => r.cpu),
    memShare: Float64Array.from(kept, (r) => r.mem),
    skippedRows: skipped,
  };
}

/**
 * The trace's values at each simulation step, as Float32Arrays of `steps` values. The first
 * row at or after `startHour` hours past the first timestamp aligns with the simulation's
 * start; each row holds until the next; the last row holds as long as the gap before it,
 * then the file wraps to its first row (period = last - first + that gap).
 */
export function sampleTrace(
  trace: GwaTrace,
  startHour: number,
  steps: number,
  stepSeconds: number,
): { cpuPercent: Float32Array; memShare: Float32Array } {
  const t = trace.timesS;
  const n = t.length;
  const first = t[0]!;
  const period = t[n - 1]! - first + (t[n - 1]! - t[n - 2]!);
  let a = 0;
  while (a < n && t[a]! - first < startHour * 3600) a++;
  // past the end: startHour wraps around the file
  const startOffset = a < n ? t[a]! - first : (startHour * 3600) % period;
  const cpuPercent = new Float32Array(steps);
  const memShare = new Float32Array(steps);
  let row = 0;
  let lastPos = -1;
  for (let s = 0; s < steps; s++) {
    const pos = (startOffset + s * stepSeconds) % period;
    if (pos < lastPos) row = 0;
    lastPos = pos;
    while (row + 1 < n && t[row + 1]! - first <= pos) row++;
    cpuPercent[s] = trace.cpuPercent[row]!;
    memShare[s] = trace.memShare[row]!;
  }
  return { cpuPercent, memShare };
}

/** Numeric-then-lexical order of file names: `2.csv` before `10.csv`, then by name. */
export function compareTraceNames(a: string, b: string): number {
  const na = /^\d+/.exec(a);
  const nb = /^\d+/.exec(b);
  if (na && nb && Number(na[0]) !== Number(nb[0])) return Number(na[0]) - Number(nb[0]);
  if (na && !nb) return -1;
  if (!na && nb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
