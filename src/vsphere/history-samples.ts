import type { CounterIndex } from "./counter-catalogue.js";
import type { EntitySample } from "./perf-samples.js";
import type { PerfEntityMetric } from "./vijson-types.js";

/**
 * Indexes historical QueryPerf results: entity id -> sample end time (vCenter's clock, epoch
 * ms) -> the sample (values by counter name, vCenter units). Aggregate instance "" only;
 * negative values (vCenter's -1, "no data") and unparsable timestamps are dropped. Adds to
 * `out` when given (results indexed piece by piece merge as if indexed at once).
 */
export function indexHistorySamples(
  results: readonly PerfEntityMetric[],
  index: CounterIndex,
  out = new Map<string, Map<number, EntitySample>>(),
): Map<string, Map<number, EntitySample>> {
  for (const entity of results) {
    const infos = entity.sampleInfo ?? [];
    let byTime = out.get(entity.entity.value);
    if (!byTime) out.set(entity.entity.value, (byTime = new Map()));
    infos.forEach((info, i) => {
      const sampledAtMs = Date.parse(info.timestamp);
      if (!Number.isFinite(sampledAtMs) || !(info.interval > 0)) return;
      const values = new Map<string, number>(byTime!.get(sampledAtMs)?.values);
      for (const series of entity.value ?? []) {
        if ((series.id.instance ?? "") !== "") continue;
        const name = index.nameByKey.get(series.id.counterId);
        const v = series.value?.[i];
        if (name === undefined || v === undefined || v < 0) continue;
        values.set(name, v);
      }
      byTime!.set(sampledAtMs, { sampledAtMs, intervalS: info.interval, values });
    });
  }
  return out;
}
