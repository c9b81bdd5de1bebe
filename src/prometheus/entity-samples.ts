import type { EntitySample } from "../vsphere/perf-samples.js";
import type { PromSample } from "./parse-query-response.js";

/** Real-time sampling interval of the counters both exporters relay, s. */
export const SAMPLE_INTERVAL_S = 20;

/**
 * Collects Prometheus samples into the poller's per-entity samples (values by vCenter counter
 * name, in vCenter units). An entity's sample time is the oldest of its series' own times:
 * one stale series makes the entity stale (no opinion) rather than passing for fresh.
 */
export class EntitySamples {
  private readonly byId = new Map<string, { atMs: number; values: Map<string, number> }>();

  /** Adds every sample of `samples` whose entity `idOf` resolves; `toVcenterUnits` converts the value. */
  add(
    samples: readonly PromSample[] | undefined,
    counter: string,
    idOf: (s: PromSample) => string | undefined,
    toVcenterUnits: (v: number) => number = (v) => v,
  ): void {
    for (const s of samples ?? []) {
      const id = idOf(s);
      if (id === undefined || s.value < 0) continue;
      this.put(id, counter, toVcenterUnits(s.value), s.atMs);
    }
  }

  put(id: string, counter: string, value: number, atMs: number): void {
    const entry = this.byId.get(id) ?? { atMs, values: new Map<string, number>() };
    entry.atMs = Math.min(entry.atMs, atMs);
    entry.values.set(counter, value);
    this.byId.set(id, entry);
  }

  toMap(): Map<string, EntitySample> {
    const out = new Map<string, EntitySample>();
    for (const [id, e] of this.byId) out.set(id, { sampledAtMs: e.atMs, intervalS: SAMPLE_INTERVAL_S, values: e.values });
    return out;
  }
}
