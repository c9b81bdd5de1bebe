import type { CounterIndex } from "./counter-catalogue.js";
import type { RawHostSample, RawVmSample } from "../model/derive-metrics.js";
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

export function toRawVmSample(sample: EntitySample): RawVmSample {
  const v = sample.values;
  return {
    sampledAtMs: sample.sampledAtMs,
    intervalS: sample.intervalS,
    ...opt("readyMs", v.get("cpu.ready.summation")),
    ...opt("balloonKB", v.get("mem.vmmemctl.average")),
    ...opt("swappedKB", v.get("mem.swapped.average")),
  };
}

export function toRawHostSample(sample: EntitySample): RawHostSample {
  const v = sample.values;
  return {
    sampledAtMs: sample.sampledAtMs,
    ...opt("cpuUsageFixed", v.get("cpu.usage.average")),
    ...opt("memUsageFixed", v.get("mem.usage.average")),
    ...opt("balloonKB", v.get("mem.vmmemctl.average")),
    ...opt("swappedKB", v.get("mem.swapped.average")),
    ...opt("swapInKBps", v.get("mem.swapinRate.average")),
    ...opt("memState", v.get("mem.state.latest")),
  };
}

function opt<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
