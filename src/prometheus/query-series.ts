import type { PromSample } from "./parse-query-response.js";
import { seriesFor, seriesQueries, type Flavour } from "./flavour-series.js";

/** Samples of each series by metric name; `atMs` is the sample's own time. */
export type SeriesByName = ReadonlyMap<string, readonly PromSample[]>;

export interface Querier {
  query(promql: string): Promise<PromSample[]>;
}

/**
 * One cycle's reads: two instant queries per series name (value, `timestamp()`), so the
 * query count depends on the flavour only, never on the number of hosts or VMs. Rejects on
 * the first failed query: a half-read view is never published.
 */
export async function querySeries(client: Querier, flavour: Flavour, selector: string): Promise<SeriesByName> {
  const specs = seriesFor(flavour);
  const answers = await Promise.all(
    specs.map(async (spec) => {
      const q = seriesQueries(spec, selector);
      const [values, times] = await Promise.all([client.query(q.value), client.query(q.time)]);
      return [spec.name, withSampleTimes(values, times)] as const;
    }),
  );
  return new Map(answers);
}

/** Joins value and timestamp() answers on the label set (timestamp() drops `__name__`); a value without a time is dropped. */
export function withSampleTimes(values: readonly PromSample[], times: readonly PromSample[]): PromSample[] {
  const timeByKey = new Map(times.map((t) => [labelKey(t.labels), t.value * 1000]));
  const out: PromSample[] = [];
  for (const v of values) {
    const atMs = timeByKey.get(labelKey(v.labels));
    if (atMs !== undefined && Number.isFinite(atMs)) out.push({ labels: v.labels, value: v.value, atMs: Math.round(atMs) });
  }
  return out;
}

function labelKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.entries(labels)
      .filter(([k]) => k !== "__name__")
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
