import { HOST_COUNTERS, VM_COUNTERS, type CounterIndex } from "./counter-catalogue.js";
import type { RawHostSample, RawVmSample } from "../model/derive-metrics.js";
import type { EntityHistory } from "./entity-history.js";
import { REALTIME_INTERVAL_ID } from "./perf-batches.js";
import type { PerfEntityMetric } from "./vijson-types.js";

/** The latest sample of one entity, values by counter name (vCenter units). */
export interface EntitySample {
  readonly sampledAtMs: number;
  readonly intervalS: number;
  readonly values: ReadonlyMap<string, number>;
}

/**
 * Indexes QueryPerf results by entity id (`vm-31`, `host-16`). Keeps the aggregate
 * instance "" only and the last value of each series; negative values (vCenter's -1 for
 * "no data") and samples without a parsable timestamp are dropped.
 */
export function indexPerfSamples(results: readonly PerfEntityMetric[], index: CounterIndex): Map<string, EntitySample> {
  const out = new Map<string, EntitySample>();
  for (const entity of results) {
    const info = entity.sampleInfo?.[entity.sampleInfo.length - 1];
    const sampledAtMs = info ? Date.parse(info.timestamp) : Number.NaN;
    if (!Number.isFinite(sampledAtMs)) continue;
    const previous = out.get(entity.entity.value);
    const values = new Map<string, number>(previous?.values);
    for (const series of entity.value ?? []) {
      if ((series.id.instance ?? "") !== "") continue;
      const name = index.nameByKey.get(series.id.counterId);
      const last = series.value?.[series.value.length - 1];
      if (name === undefined || last === undefined || last < 0) continue;
      values.set(name, last);
    }
    const intervalS = info && info.interval > 0 ? info.interval : REALTIME_INTERVAL_ID;
    out.set(entity.entity.value, { sampledAtMs: Math.max(sampledAtMs, previous?.sampledAtMs ?? 0), intervalS, values });
  }
  return out;
}

/** The VM's raw sample: each counter of `VM_COUNTERS` into its field. */
export function toRawVmSample(sample: EntitySample): RawVmSample {
  return { sampledAtMs: sample.sampledAtMs, intervalS: sample.intervalS, ...fields(sample, VM_FIELDS) };
}

/** The host's raw sample: each counter of `HOST_COUNTERS` into its field. */
export function toRawHostSample(sample: EntitySample): RawHostSample {
  return { sampledAtMs: sample.sampledAtMs, ...fields(sample, HOST_FIELDS) };
}

/**
 * An entity's history read as raw VM samples by sample end time (undefined: no sample then).
 * Each counter's column is looked up once per entity, not once per row: a warm start reads 576
 * rows of every VM of a host.
 */
export function historyVmSamples(history: EntityHistory): (atMs: number) => RawVmSample | undefined {
  const columns = columnsOf(history, VM_FIELDS);
  return (atMs) => {
    const row = history.rowAt(atMs);
    return row === undefined ? undefined : valuesAt(columns, row, { sampledAtMs: atMs, intervalS: history.intervalSAt(row) });
  };
}

/** An entity's history read as raw host samples by sample end time, as `historyVmSamples`. */
export function historyHostSamples(history: EntityHistory): (atMs: number) => RawHostSample | undefined {
  const columns = columnsOf(history, HOST_FIELDS);
  return (atMs) => {
    const row = history.rowAt(atMs);
    return row === undefined ? undefined : valuesAt(columns, row, { sampledAtMs: atMs });
  };
}

/** Counter name -> field pairs, listed once: a warm start converts millions of samples. */
const VM_FIELDS = Object.entries(VM_COUNTERS) as ReadonlyArray<[string, (typeof VM_COUNTERS)[keyof typeof VM_COUNTERS]]>;
const HOST_FIELDS = Object.entries(HOST_COUNTERS) as ReadonlyArray<[string, (typeof HOST_COUNTERS)[keyof typeof HOST_COUNTERS]]>;

/** The counters the sample carries, by field; a counter it lacks leaves its field out (unknown, never 0). */
function fields<F extends string>(sample: EntitySample, counters: ReadonlyArray<readonly [string, F]>): { [K in F]?: number } {
  const out: { [K in F]?: number } = {};
  for (const [name, field] of counters) {
    const value = sample.values.get(name);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

type Column<F extends string> = readonly [F, ReadonlyArray<number | undefined>];

/** The columns of the counters the history has, by field. */
function columnsOf<F extends string>(history: EntityHistory, counters: ReadonlyArray<readonly [string, F]>): Array<Column<F>> {
  const out: Array<Column<F>> = [];
  for (const [name, field] of counters) {
    const column = history.column(name);
    if (column) out.push([field, column]);
  }
  return out;
}

/** `out` with each column's value in `row`; a hole leaves its field out (unknown, never 0). */
function valuesAt<F extends string, T extends object>(columns: ReadonlyArray<Column<F>>, row: number, out: T): T & { [K in F]?: number } {
  const fieldsOut = out as T & { [K in F]?: number };
  for (const [field, column] of columns) {
    const value = column[row];
    if (value !== undefined) (fieldsOut as { [K in F]?: number })[field] = value;
  }
  return fieldsOut;
}
