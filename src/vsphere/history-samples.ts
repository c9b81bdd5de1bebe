import type { CounterIndex } from "./counter-catalogue.js";
import { EntityHistory } from "./entity-history.js";
import type { PerfEntityMetric } from "./vijson-types.js";

/**
 * Indexes historical QueryPerf results: entity id -> its samples by end time (vCenter's clock,
 * epoch ms), values by counter name (vCenter units). Aggregate instance "" only; negative values
 * (vCenter's -1, "no data") and unparsable timestamps are dropped. Adds to `out` when given
 * (results indexed piece by piece merge as if indexed at once).
 */
export function indexHistorySamples(
  results: readonly PerfEntityMetric[],
  index: CounterIndex,
  out = new Map<string, EntityHistory>(),
): Map<string, EntityHistory> {
  for (const entity of results) {
    const infos = entity.sampleInfo ?? [];
    let history = out.get(entity.entity.value);
    if (!history) out.set(entity.entity.value, (history = new EntityHistory()));
    // Resolved once per entity, not once per sample: a day at 300 s is 288 samples per series.
    const series = namedSeries(entity, index);
    for (let i = 0; i < infos.length; i++) {
      const info = infos[i]!;
      const sampledAtMs = Date.parse(info.timestamp);
      if (!Number.isFinite(sampledAtMs) || !(info.interval > 0)) continue;
      const row = history.row(sampledAtMs, info.interval);
      for (const s of series) {
        const v = s.values[i];
        if (v !== undefined && v >= 0) history.set(row, s.name, v);
      }
    }
  }
  return out;
}

/** The entity's aggregate series of known counters, in reply order. */
function namedSeries(entity: PerfEntityMetric, index: CounterIndex): Array<{ name: string; values: readonly number[] }> {
  const out: Array<{ name: string; values: readonly number[] }> = [];
  for (const series of entity.value ?? []) {
    if ((series.id.instance ?? "") !== "") continue;
    const name = index.nameByKey.get(series.id.counterId);
    if (name !== undefined && series.value) out.push({ name, values: series.value });
  }
  return out;
}
