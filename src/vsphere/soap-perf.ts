import type { SoapClient } from "./soap-client.js";
import {
  asInteger,
  asNumber,
  child,
  children,
  moRefOf,
  textOf,
  xsiType,
  type SoapField,
  type SoapObject,
  type XmlElement,
} from "./soap-envelope.js";
import { retrieveObject } from "./soap-property-collector.js";
import type { OptionValue, PerfCounterInfo, PerfEntityMetric, PerfQuerySpec } from "./vijson-types.js";

/**
 * The PerformanceManager and OptionManager over SOAP, answering in the VI/JSON shapes
 * (`PerfCounterInfo`, `PerfEntityMetric`, `OptionValue`) that the counter index, the batches and
 * the sample index already read.
 */
export class SoapPerf {
  constructor(private readonly client: SoapClient) {}

  /**
   * The whole counter catalogue: the PerformanceManager's `perfCounter` property, which every
   * vCenter has (vcsim lacks QueryPerfCounterByLevel).
   */
  async perfCounters(): Promise<PerfCounterInfo[]> {
    const { perfManager } = await this.client.serviceContent();
    const found = await retrieveObject(this.client, perfManager, ["perfCounter"]);
    const list = found?.props.get("perfCounter");
    return list ? list.children.map(toCounterInfo).filter((c): c is PerfCounterInfo => c !== undefined) : [];
  }

  /** `QueryPerf`; the caller keeps each call within `vpxd.stats.maxQueryMetrics`. */
  async queryPerf(querySpec: readonly PerfQuerySpec[]): Promise<PerfEntityMetric[]> {
    const { perfManager } = await this.client.serviceContent();
    const returnval = await this.client.call("QueryPerf", perfManager, [["querySpec", querySpec.map(toSoapSpec)]]);
    return returnval.map(toEntityMetric).filter((m): m is PerfEntityMetric => m !== undefined);
  }

  /** `OptionManager.QueryOptions` on vCenter's settings (`VpxSettings`); an unset name is the fault `InvalidName`. */
  async queryOptions(name: string): Promise<OptionValue[]> {
    const { setting } = await this.client.serviceContent();
    const returnval = await this.client.call("QueryOptions", setting ?? { type: "OptionManager", value: "VpxSettings" }, [["name", name]]);
    return returnval.flatMap((o) => {
      const key = textOf(o, "key");
      const value = child(o, "value");
      if (key === undefined) return [];
      return [{ key, value: value ? { _typeName: xsiType(value) ?? "string", _value: value.text } : null }];
    });
  }
}

/** PerfQuerySpec in the WSDL's element order: entity, startTime, endTime, maxSample, metricId, intervalId. */
export function toSoapSpec(spec: PerfQuerySpec): SoapObject {
  const fields: SoapField[] = [
    ["entity", { moRef: { type: spec.entity.type, value: spec.entity.value } }],
    ["startTime", spec.startTime],
    ["endTime", spec.endTime],
    ["maxSample", spec.maxSample],
    [
      "metricId",
      spec.metricId.map((m) => ({
        fields: [
          ["counterId", m.counterId],
          ["instance", m.instance],
        ] as SoapField[],
      })),
    ],
    ["intervalId", spec.intervalId],
  ];
  return { fields };
}

function toCounterInfo(el: XmlElement): PerfCounterInfo | undefined {
  const key = asInteger(child(el, "key"));
  const name = child(el, "nameInfo");
  const group = child(el, "groupInfo");
  const rollupType = textOf(el, "rollupType");
  const unit = child(el, "unitInfo");
  const statsType = textOf(el, "statsType");
  const nameKey = name ? textOf(name, "key") : undefined;
  const groupKey = group ? textOf(group, "key") : undefined;
  const unitKey = unit ? textOf(unit, "key") : undefined;
  if (key === undefined || nameKey === undefined || groupKey === undefined || rollupType === undefined) return undefined;
  return {
    key,
    nameInfo: { key: nameKey },
    groupInfo: { key: groupKey },
    rollupType,
    ...(unitKey !== undefined ? { unitInfo: { key: unitKey } } : {}),
    ...(statsType !== undefined ? { statsType } : {}),
  };
}

/**
 * A PerfEntityMetric (CSV results are not asked for). Samples are put in time order, oldest
 * first, as vCenter sends them and as the sample index expects (vcsim sends newest first).
 */
export function toEntityMetric(el: XmlElement): PerfEntityMetric | undefined {
  const entity = moRefOf(child(el, "entity"));
  if (!entity) return undefined;
  const samples = children(el, "sampleInfo").map((s) => ({
    timestamp: textOf(s, "timestamp") ?? "",
    interval: asNumber(child(s, "interval")) ?? 0,
  }));
  const order = samples.map((s, i) => ({ i, t: Date.parse(s.timestamp) })).sort((a, b) => a.t - b.t || a.i - b.i);
  const sorted = order.every((o, k) => o.i === k) ? undefined : order.map((o) => o.i);
  const reorder = <T>(xs: readonly T[]): T[] => (sorted && xs.length === samples.length ? sorted.map((i) => xs[i]!) : [...xs]);
  const value = children(el, "value").flatMap((series) => {
    const id = child(series, "id");
    const counterId = id ? asInteger(child(id, "counterId")) : undefined;
    if (!id || counterId === undefined) return [];
    const points = children(series, "value").map((v) => asNumber(v) ?? -1);
    return [{ id: { counterId, instance: textOf(id, "instance") ?? "" }, value: reorder(points) }];
  });
  return { entity: { type: entity.type, value: entity.value }, sampleInfo: reorder(samples), value };
}
