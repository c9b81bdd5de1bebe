import { COUNTERS, counterByKey, counterFullName, counterKey } from "./counter-catalogue.js";
import { DEFAULT_MAX_QUERY_METRICS, maxQueryMetrics, vmsOnHost, type MockState } from "./mock-state.js";
import { SAMPLE_INTERVAL_S, counterInstances, counterValue, type PerfEntity } from "./perf-values.js";
import {
  VI_BAD_REQUEST_STATUS,
  VI_FAULT_STATUS,
  invalidArgument,
  invalidRequest,
  managedObjectNotFound,
  moRef,
  restrictedByAdministrator,
} from "./wire-errors.js";

/** vpxd.stats.maxQueryMetrics default: more metrics (entities x metricIds) in one query is refused. */
export const MAX_QUERY_METRICS = DEFAULT_MAX_QUERY_METRICS;
/** Real-time samples are kept one hour: 180 x 20 s. */
const REALTIME_KEPT = 180;
/** The first historical interval (past day): 300 s samples. */
export const HISTORICAL_INTERVAL_S = 300;
/** Historical samples answered to a spec without `startTime` (the mock's choice: the last hour of 300 s ones). */
const HISTORICAL_KEPT = 12;

/** The interval a spec reads: real-time, or one of the scenario's historical intervals. */
type IntervalRead = { readonly samplingPeriod: number; readonly level: number; readonly enabled: boolean; readonly lengthS: number };
const REALTIME: IntervalRead = { samplingPeriod: SAMPLE_INTERVAL_S, level: 4, enabled: true, lengthS: REALTIME_KEPT * SAMPLE_INTERVAL_S };

export interface PerfQuerySpecWire {
  _typeName?: unknown;
  entity?: { _typeName?: unknown; type?: unknown; value?: unknown };
  metricId?: unknown;
  intervalId?: unknown;
  maxSample?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  format?: unknown;
}
export interface PerfReply {
  status: number;
  body: unknown;
  /** Metrics asked for (entities x metricIds), for stats even when refused. */
  metrics: number;
}
type Fault = { fault: object; status?: number };
interface MetricIdWire {
  key: number;
  instance: string;
}
/** A spec that deserialized: the entity reference and its metric ids (undefined = every counter). */
interface ParsedSpec {
  spec: PerfQuerySpecWire;
  ref: { type: string; value: string };
  metricIds: MetricIdWire[] | undefined;
}

/**
 * `QueryPerf`: an array of PerfEntityMetric, one per entity that has data. Checked in the
 * order vCenter does: the body must deserialize (a missing required property, such as a
 * PerfMetricId's `instance`, or a wrong `_typeName` is a 400 InvalidRequest); then the
 * entities must exist; then the query must fit `vpxd.stats.maxQueryMetrics`
 * (RestrictedByAdministrator); then each spec's interval, format and times are checked.
 */
export function queryPerf(state: MockState, body: unknown): PerfReply {
  const specs = (body as { querySpec?: unknown } | undefined)?.querySpec;
  if (!Array.isArray(specs)) return refuse({ fault: invalidArgument("querySpec") }, 0);
  const parsed: ParsedSpec[] = [];
  for (const spec of specs) {
    const p = parseSpec(spec);
    if ("fault" in p) return refuse(p, 0);
    parsed.push(p);
  }
  noteQueriedCounters(state, parsed);
  const planned: Array<{ parsed: ParsedSpec; entity: PerfEntity }> = [];
  let metrics = 0;
  for (const p of parsed) {
    const entity = resolveEntity(state, p.ref);
    if ("fault" in entity) return refuse(entity, metrics);
    metrics += metricCount(p, entity);
    planned.push({ parsed: p, entity });
  }
  if (metrics > maxQueryMetrics(state)) return refuse(tooLarge(), metrics);
  const out: object[] = [];
  for (const { parsed: p, entity } of planned) {
    const m = entityMetric(state, p, entity);
    if ("fault" in m) return refuse(m, metrics);
    if (m.metric !== undefined) out.push(m.metric);
  }
  return { status: 200, body: out, metrics };
}

/** `QueryPerfComposite`: one HostSystem spec -> the host's metric plus its VMs' as childEntity. `metricId` is required. */
export function queryPerfComposite(state: MockState, body: unknown): PerfReply {
  const spec = (body as { querySpec?: unknown } | undefined)?.querySpec;
  if (spec === undefined || typeof spec !== "object" || spec === null || Array.isArray(spec))
    return refuse({ fault: invalidArgument("querySpec") }, 0);
  const p = parseSpec(spec);
  if ("fault" in p) return refuse(p, 0);
  if (p.metricIds === undefined || p.metricIds.length === 0) return refuse({ fault: invalidArgument("querySpec.metricId") }, 0);
  noteQueriedCounters(state, [p]);
  const host = resolveEntity(state, p.ref);
  if ("fault" in host) return refuse(host, 0);
  if (host.kind !== "host") return refuse({ fault: invalidArgument("querySpec.entity") }, 0);
  const children: PerfEntity[] = vmsOnHost(state, host.host.id).map((vm) => ({ kind: "vm", vm }));
  const metrics = [host, ...children].reduce((n, e) => n + metricCount(p, e), 0);
  if (metrics > maxQueryMetrics(state)) return refuse(tooLarge(), metrics);
  const hostMetric = entityMetric(state, p, host);
  if ("fault" in hostMetric) return refuse(hostMetric, metrics);
  const childEntity: object[] = [];
  for (const c of children) {
    const m = entityMetric(state, p, c);
    if ("fault" in m) return refuse(m, metrics);
    if (m.metric !== undefined) childEntity.push(m.metric);
  }
  const reply: Record<string, unknown> = { _typeName: "PerfCompositeMetric" };
  if (hostMetric.metric !== undefined) reply["entity"] = hostMetric.metric;
  if (childEntity.length > 0) reply["childEntity"] = childEntity;
  return { status: 200, body: reply, metrics };
}

/** Adds the counters the specs name to `stats.queriedCounters` (a key the catalogue lacks as `key <n>`). */
function noteQueriedCounters(state: MockState, specs: readonly ParsedSpec[]): void {
  const seen = state.stats.queriedCounters;
  for (const id of specs.flatMap((p) => p.metricIds ?? [])) {
    const c = counterByKey(id.key, state.scenario.counterKeyOffset);
    const name = c ? counterFullName(c) : `key ${id.key}`;
    if (!seen.includes(name)) seen.push(name);
  }
}

const refuse = (f: Fault, metrics: number): PerfReply => ({ status: f.status ?? VI_FAULT_STATUS, body: f.fault, metrics });
const tooLarge = (): Fault => ({ fault: restrictedByAdministrator("vpxd.stats.maxQueryMetrics") });
const badRequest = (message: string): Fault => ({ fault: invalidRequest(message), status: VI_BAD_REQUEST_STATUS });
const missing = (property: string, type: string) => badRequest(`Required property ${property} is missing from data object of type ${type}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function wrongType(value: Record<string, unknown>, expected: string): Fault | undefined {
  const t = value["_typeName"];
  return t === undefined || t === expected ? undefined : badRequest(`Unexpected type '${String(t)}' where ${expected} is expected`);
}

/** Deserializes one PerfQuerySpec as vmomi would: required properties present and of the right type. */
function parseSpec(spec: unknown): ParsedSpec | Fault {
  if (!isObject(spec)) return badRequest("Expected a data object of type PerfQuerySpec");
  const typeFault = wrongType(spec, "PerfQuerySpec");
  if (typeFault) return typeFault;
  const entity = spec["entity"];
  if (entity === undefined || entity === null) return missing("entity", "PerfQuerySpec");
  if (!isObject(entity)) return badRequest("Expected a ManagedObjectReference for PerfQuerySpec.entity");
  const refFault = wrongType(entity, "ManagedObjectReference");
  if (refFault) return refFault;
  if (typeof entity["type"] !== "string") return missing("type", "ManagedObjectReference");
  if (typeof entity["value"] !== "string") return missing("value", "ManagedObjectReference");
  const ids = spec["metricId"];
  let metricIds: MetricIdWire[] | undefined;
  if (ids !== undefined && ids !== null) {
    if (!Array.isArray(ids)) return badRequest("Expected an array of PerfMetricId for PerfQuerySpec.metricId");
    metricIds = [];
    for (const id of ids) {
      if (!isObject(id)) return badRequest("Expected a data object of type PerfMetricId");
      const idFault = wrongType(id, "PerfMetricId");
      if (idFault) return idFault;
      if (id["counterId"] === undefined) return missing("counterId", "PerfMetricId");
      if (!Number.isInteger(id["counterId"])) return badRequest("PerfMetricId.counterId must be an int");
      if (id["instance"] === undefined) return missing("instance", "PerfMetricId");
      if (typeof id["instance"] !== "string") return badRequest("PerfMetricId.instance must be a string");
      metricIds.push({ key: id["counterId"] as number, instance: id["instance"] });
    }
  }
  return { spec: spec as PerfQuerySpecWire, ref: { type: entity["type"], value: entity["value"] }, metricIds };
}

function resolveEntity(state: MockState, ref: { type: string; value: string }): PerfEntity | Fault {
  if (ref.type === "HostSystem") {
    const host = state.hosts.get(ref.value);
    if (host !== undefined) return { kind: "host", host };
  } else if (ref.type === "VirtualMachine") {
    const vm = state.vms.get(ref.value);
    if (vm !== undefined) return { kind: "vm", vm };
  }
  return { fault: managedObjectNotFound(ref.type, ref.value) };
}

/** Metrics a spec asks for on one entity: its metric ids, or (none given) every counter of the entity. */
function metricCount(p: ParsedSpec, e: PerfEntity): number {
  return p.metricIds !== undefined && p.metricIds.length > 0
    ? p.metricIds.length
    : COUNTERS.filter((c) => c.entities.includes(e.kind)).length;
}

/**
 * The interval a spec reads: 20 (real-time) when asked for; a historical interval's
 * `samplingPeriod` (300, 1800, ... as the scenario's `historicalIntervals` list them) when
 * asked for, or the shortest one when `intervalId` is left out, since vCenter then answers
 * from its statistics database rather than the hosts' real-time data. Any other (or any
 * historical one on a vCenter that keeps none): InvalidArgument `querySpec.interval`.
 */
function intervalOf(state: MockState, spec: PerfQuerySpecWire): IntervalRead | Fault {
  const intervals = [...state.scenario.historicalIntervals].sort((a, b) => a.samplingPeriod - b.samplingPeriod);
  const wanted = spec.intervalId === undefined || spec.intervalId === null ? intervals[0]?.samplingPeriod : Number(spec.intervalId);
  if (wanted === SAMPLE_INTERVAL_S) return REALTIME;
  const found = intervals.find((i) => i.samplingPeriod === wanted);
  if (found === undefined) return { fault: invalidArgument("querySpec.interval") };
  return { samplingPeriod: found.samplingPeriod, level: found.level, enabled: found.enabled, lengthS: found.length };
}

/**
 * Sample end times a spec gets, newest last. Real-time: 20 s boundaries of the mock clock,
 * one hour kept, `maxSample` keeps the newest N. Historical: the interval's boundaries within
 * its `length` (from `startTime`, else the last hour), none while the interval is disabled,
 * `maxSample` ignored (as vCenter documents).
 */
function sampleTimesMs(state: MockState, spec: PerfQuerySpecWire, interval: IntervalRead): number[] | Fault {
  const intervalS = interval.samplingPeriod;
  const stepMs = intervalS * 1000;
  const latest = Math.floor(state.clock() / stepMs) * stepMs;
  const start = spec.startTime === undefined ? undefined : Date.parse(String(spec.startTime));
  const end = spec.endTime === undefined ? undefined : Date.parse(String(spec.endTime));
  if (start !== undefined && Number.isNaN(start)) return { fault: invalidArgument("querySpec.startTime") };
  if (end !== undefined && Number.isNaN(end)) return { fault: invalidArgument("querySpec.endTime") };
  const max = spec.maxSample === undefined ? undefined : Number(spec.maxSample);
  if (max !== undefined && !(Number.isInteger(max) && max > 0)) return { fault: invalidArgument("querySpec.maxSample") };
  if (!interval.enabled) return [];
  const kept =
    intervalS === SAMPLE_INTERVAL_S ? REALTIME_KEPT : start === undefined ? HISTORICAL_KEPT : Math.floor(interval.lengthS / intervalS);
  const times: number[] = [];
  for (let k = kept - 1; k >= 0; k--) {
    const t = latest - k * stepMs;
    if ((start === undefined || t > start) && (end === undefined || t <= end)) times.push(t);
  }
  return max === undefined || intervalS !== SAMPLE_INTERVAL_S ? times : times.slice(Math.max(0, times.length - max));
}

function hasData(state: MockState, e: PerfEntity): boolean {
  if (e.kind === "host") return e.host.connectionState === "CONNECTED";
  return e.vm.powerState === "POWERED_ON" && state.hosts.get(e.vm.host)?.connectionState === "CONNECTED";
}

function entityMetric(state: MockState, p: ParsedSpec, e: PerfEntity): { metric?: object } | Fault {
  const spec = p.spec;
  const interval = intervalOf(state, spec);
  if ("fault" in interval) return interval;
  if (spec.format !== undefined && spec.format !== "normal") return { fault: invalidArgument("querySpec.format") };
  const times = sampleTimesMs(state, spec, interval);
  if (!Array.isArray(times)) return times;
  if (!hasData(state, e) || times.length === 0) return {};
  // The host's VMs found once for every sample of every counter.
  const source: PerfEntity = e.kind === "host" ? { ...e, vms: e.vms ?? vmsOnHost(state, e.host.id) } : e;
  const offset = state.scenario.counterKeyOffset;
  const wanted =
    p.metricIds !== undefined && p.metricIds.length > 0
      ? p.metricIds
      : COUNTERS.filter((c) => c.entities.includes(e.kind)).map((c) => ({ key: counterKey(c, offset), instance: "*" }));
  const missing = e.kind === "host" ? state.faults.hostCountersMissing[e.host.id] : undefined;
  const series: object[] = [];
  for (const w of missing === "omitted" ? [] : wanted) {
    const c = counterByKey(w.key, offset);
    // A counter above the interval's statistics level is not collected for it.
    if (c === undefined || c.level > interval.level) continue;
    const intervalS = interval.samplingPeriod;
    // A summation over a 300 s sample adds up fifteen 20 s ones.
    const scale = c.rollup === "summation" ? intervalS / SAMPLE_INTERVAL_S : 1;
    // A historical sample stands for its whole interval: the series at the interval's midpoint.
    const at = (t: number) => (t - state.startMs) / 1000 - (intervalS === SAMPLE_INTERVAL_S ? 0 : intervalS / 2);
    for (const instance of w.instance === "*" ? counterInstances(c, e) : [w.instance]) {
      const values = times.map((t) => counterValue(state, c, source, instance, at(t)));
      if (values.some((v) => v === undefined)) continue;
      series.push({
        _typeName: "PerfMetricIntSeries",
        id: { _typeName: "PerfMetricId", counterId: w.key, instance },
        value: values.map((v) => (missing === "minus_one" ? -1 : (v as number) * scale)),
      });
    }
  }
  const entity = e.kind === "host" ? moRef("HostSystem", e.host.id) : moRef("VirtualMachine", e.vm.id);
  const sampleInfo = times.map((t) => ({ _typeName: "PerfSampleInfo", timestamp: toViTimestamp(t), interval: interval.samplingPeriod }));
  return { metric: { _typeName: "PerfEntityMetric", entity, sampleInfo, value: series } };
}

/**
 * Timestamps already written, by epoch ms: a history reply repeats the same 288 for every entity,
 * and writing each again was over a quarter of the mock's CPU in a 250-host warm start, CPU the
 * benchmarks' mock takes from hvx on the same cores. Bounded: cleared at 10 000 entries.
 */
const viTimestamps = new Map<number, string>();

/** `2026-11-29T10:00:20Z` (vCenter leaves out zero milliseconds). */
export function toViTimestamp(ms: number): string {
  let text = viTimestamps.get(ms);
  if (text === undefined) {
    if (viTimestamps.size >= 10_000) viTimestamps.clear();
    viTimestamps.set(ms, (text = new Date(ms).toISOString().replace(".000Z", "Z")));
  }
  return text;
}
