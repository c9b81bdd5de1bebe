import type { PerfQuerySpec } from "./vijson-types.js";

/** vCenter's default `vpxd.stats.maxQueryMetrics`: metrics (entity x counter) per query. */
export const MAX_QUERY_METRICS = 256;
/** Real-time statistics: 20 s samples. */
export const REALTIME_INTERVAL_ID = 20;

/** A historical query's interval and time range (vCenter's clock, xsd:dateTime). */
export interface PerfWindow {
  readonly intervalId: number;
  readonly startTime: string;
  readonly endTime: string;
}

export interface PerfTarget {
  /** `HostSystem` or `VirtualMachine`. */
  readonly type: string;
  readonly id: string;
  readonly counterIds: readonly number[];
}

/**
 * Splits the wanted (entity, counter) pairs into QueryPerf bodies of at most `maxMetrics`
 * metrics each, aggregate instance "": the latest real-time sample only, or with `window`
 * that historical interval's samples over its time range. An entity may be split
 * over two queries when it does not fit whole. 300 entities x 2 counters = 600 metrics
 * -> 3 queries (256 + 256 + 88).
 */
export function buildPerfBatches(
  targets: readonly PerfTarget[],
  maxMetrics: number = MAX_QUERY_METRICS,
  window?: PerfWindow,
): PerfQuerySpec[][] {
  if (!Number.isInteger(maxMetrics) || maxMetrics < 1) throw new RangeError(`maxMetrics must be >= 1, got ${maxMetrics}`);
  const batches: PerfQuerySpec[][] = [];
  let current: PerfQuerySpec[] = [];
  let used = 0;
  for (const target of targets) {
    let rest = target.counterIds;
    while (rest.length > 0) {
      if (used === maxMetrics) {
        batches.push(current);
        current = [];
        used = 0;
      }
      const take = rest.slice(0, maxMetrics - used);
      rest = rest.slice(take.length);
      current.push({
        _typeName: "PerfQuerySpec",
        entity: { _typeName: "ManagedObjectReference", type: target.type, value: target.id },
        metricId: take.map((counterId) => ({ _typeName: "PerfMetricId", counterId, instance: "" })),
        ...(window
          ? { intervalId: window.intervalId, startTime: window.startTime, endTime: window.endTime }
          : { intervalId: REALTIME_INTERVAL_ID, maxSample: 1 }),
      });
      used += take.length;
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Metrics (entity x counter) in one QueryPerf body. */
/** The historical window a batch was built with (undefined: real-time). */
export function windowOf(spec: PerfQuerySpec | undefined): PerfWindow | undefined {
  if (!spec || spec.startTime === undefined || spec.endTime === undefined) return undefined;
  return { intervalId: spec.intervalId, startTime: spec.startTime, endTime: spec.endTime };
}

export function countMetrics(specs: readonly PerfQuerySpec[]): number {
  return specs.reduce((n, s) => n + s.metricId.length, 0);
}
