import { COUNTERS, counterByKey, counterKey } from "./counter-catalogue.js";
import { vmsOnHost, type MockState } from "./mock-state.js";
import { SAMPLE_INTERVAL_S, counterInstances, counterValue, type PerfEntity } from "./perf-values.js";
import { VI_FAULT_STATUS, invalidArgument, managedObjectNotFound, moRef } from "./wire-errors.js";

/** vpxd.stats.maxQueryMetrics default: more metrics (entities x metricIds) in one query is refused. */
export const MAX_QUERY_METRICS = 256;
/** Real-time samples are kept one hour: 180 x 20 s. */
const SAMPLES_KEPT = 180;
const SAMPLE_MS = SAMPLE_INTERVAL_S * 1000;

export interface PerfQuerySpecWire {
  entity?: { type?: unknown; value?: unknown };
  metricId?: Array<{ counterId?: unknown; instance?: unknown }>;
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
type Fault = { fault: object };

/** `QueryPerf`: an array of PerfEntityMetric, one per entity that has real-time data. */
export function queryPerf(state: MockState, body: unknown): PerfReply {
  const specs = (body as { querySpec?: unknown } | undefined)?.querySpec;
  if (!Array.isArray(specs)) return refuse(invalidArgument("querySpec"), 0);
  const planned: Array<{ spec: PerfQuerySpecWire; entity: PerfEntity }> = [];
  let metrics = 0;
  for (const spec of specs as PerfQuerySpecWire[]) {
    const entity = resolveEntity(state, spec.entity);
    if ("fault" in entity) return refuse(entity.fault, metrics);
    metrics += metricIdCount(spec, entity);
    planned.push({ spec, entity });
  }
  if (metrics > MAX_QUERY_METRICS) return refuse(invalidArgument("querySpec.size"), metrics);
  const out: object[] = [];
  for (const { spec, entity } of planned) {
    const m = entityMetric(state, spec, entity);
    if ("fault" in m) return refuse(m.fault, metrics);
    if (m.metric !== undefined) out.push(m.metric);
  }
  return { status: 200, body: out, metrics };
}

/** `QueryPerfComposite`: one HostSystem spec -> the host's metric plus its VMs' as childEntity. */
export function queryPerfComposite(state: MockState, body: unknown): PerfReply {
  const spec = (body as { querySpec?: unknown } | undefined)?.querySpec as PerfQuerySpecWire | undefined;
  if (spec === undefined || typeof spec !== "object" || Array.isArray(spec)) return refuse(invalidArgument("querySpec"), 0);
  const host = resolveEntity(state, spec.entity);
  if ("fault" in host) return refuse(host.fault, 0);
  if (host.kind !== "host") return refuse(invalidArgument("querySpec.entity"), 0);
  const children: PerfEntity[] = vmsOnHost(state, host.host.id).map((vm) => ({ kind: "vm", vm }));
  const metrics = [host, ...children].reduce((n, e) => n + metricIdCount(spec, e), 0);
  if (metrics > MAX_QUERY_METRICS) return refuse(invalidArgument("querySpec.size"), metrics);
  const hostMetric = entityMetric(state, spec, host);
  if ("fault" in hostMetric) return refuse(hostMetric.fault, metrics);
  const childEntity: object[] = [];
  for (const c of children) {
    const m = entityMetric(state, spec, c);
    if ("fault" in m) return refuse(m.fault, metrics);
    if (m.metric !== undefined) childEntity.push(m.metric);
  }
  const reply: Record<string, unknown> = { _typeName: "PerfCompositeMetric" };
  if (hostMetric.metric !== undefined) reply["entity"] = hostMetric.metric;
  if (childEntity.length > 0) reply["childEntity"] = childEntity;
  return { status: 200, body: reply, metrics };
}

const refuse = (fault: object, metrics: number): PerfReply => ({ status: VI_FAULT_STATUS, body: fault, metrics });

function resolveEntity(state: MockState, ref: PerfQuerySpecWire["entity"]): PerfEntity | Fault {
  const type = String(ref?.type ?? "");
  const value = String(ref?.value ?? "");
  if (type === "HostSystem") {
    const host = state.hosts.get(value);
    if (host !== undefined) return { kind: "host", host };
  } else if (type === "VirtualMachine") {
    const vm = state.vms.get(value);
    if (vm !== undefined) return { kind: "vm", vm };
  } else if (ref === undefined) {
    return { fault: invalidArgument("querySpec.entity") };
  }
  return { fault: managedObjectNotFound(type, value) };
}

function metricIdCount(spec: PerfQuerySpecWire, e: PerfEntity): number {
  const ids = spec.metricId;
  return Array.isArray(ids) && ids.length > 0 ? ids.length : COUNTERS.filter((c) => c.entities.includes(e.kind)).length;
}

/** Samples available to a spec: 20 s boundaries of the mock clock, newest last. */
function sampleTimesMs(state: MockState, spec: PerfQuerySpecWire): number[] | Fault {
  const latest = Math.floor(state.clock() / SAMPLE_MS) * SAMPLE_MS;
  const start = spec.startTime === undefined ? undefined : Date.parse(String(spec.startTime));
  const end = spec.endTime === undefined ? undefined : Date.parse(String(spec.endTime));
  if (start !== undefined && Number.isNaN(start)) return { fault: invalidArgument("startTime") };
  if (end !== undefined && Number.isNaN(end)) return { fault: invalidArgument("endTime") };
  const max = spec.maxSample === undefined ? undefined : Number(spec.maxSample);
  if (max !== undefined && !(Number.isInteger(max) && max > 0)) return { fault: invalidArgument("maxSample") };
  const times: number[] = [];
  for (let k = SAMPLES_KEPT - 1; k >= 0; k--) {
    const t = latest - k * SAMPLE_MS;
    if ((start === undefined || t > start) && (end === undefined || t <= end)) times.push(t);
  }
  return max === undefined ? times : times.slice(Math.max(0, times.length - max));
}

function hasRealtimeData(state: MockState, e: PerfEntity): boolean {
  if (e.kind === "host") return e.host.connectionState === "CONNECTED";
  return e.vm.powerState === "POWERED_ON" && state.hosts.get(e.vm.host)?.connectionState === "CONNECTED";
}

function entityMetric(state: MockState, spec: PerfQuerySpecWire, e: PerfEntity): { metric?: object } | Fault {
  const interval = spec.intervalId === undefined ? SAMPLE_INTERVAL_S : Number(spec.intervalId);
  if (interval !== SAMPLE_INTERVAL_S) return { fault: invalidArgument("interval") };
  if (spec.format !== undefined && spec.format !== "normal") return { fault: invalidArgument("format") };
  const times = sampleTimesMs(state, spec);
  if (!Array.isArray(times)) return times;
  if (!hasRealtimeData(state, e) || times.length === 0) return {};
  const offset = state.scenario.counterKeyOffset;
  const wanted =
    Array.isArray(spec.metricId) && spec.metricId.length > 0
      ? spec.metricId.map((m) => ({ key: Number(m.counterId), instance: typeof m.instance === "string" ? m.instance : "" }))
      : COUNTERS.filter((c) => c.entities.includes(e.kind)).map((c) => ({ key: counterKey(c, offset), instance: "" }));
  const series: object[] = [];
  for (const w of wanted) {
    const c = counterByKey(w.key, offset);
    if (c === undefined) continue;
    for (const instance of w.instance === "*" ? counterInstances(c, e) : [w.instance]) {
      const values = times.map((t) => counterValue(state, c, e, instance, (t - state.startMs) / 1000));
      if (values.some((v) => v === undefined)) continue;
      series.push({ _typeName: "PerfMetricIntSeries", id: { _typeName: "PerfMetricId", counterId: w.key, instance }, value: values });
    }
  }
  const entity = e.kind === "host" ? moRef("HostSystem", e.host.id) : moRef("VirtualMachine", e.vm.id);
  const sampleInfo = times.map((t) => ({ _typeName: "PerfSampleInfo", timestamp: toViTimestamp(t), interval: SAMPLE_INTERVAL_S }));
  return { metric: { _typeName: "PerfEntityMetric", entity, sampleInfo, value: series } };
}

/** `2026-11-29T10:00:20Z` (vCenter leaves out zero milliseconds). */
export function toViTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}
