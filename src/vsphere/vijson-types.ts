import { z } from "zod";

/** VI/JSON wire shapes hvx reads (fields it does not read are let through untouched). */
export const moRefSchema = z.object({ type: z.string(), value: z.string() }).passthrough();
export type MoRef = z.infer<typeof moRefSchema>;

export const serviceContentSchema = z
  .object({ sessionManager: moRefSchema.optional(), perfManager: moRefSchema.optional(), setting: moRefSchema.optional() })
  .passthrough();

const elementDescriptionSchema = z.object({ key: z.string(), summary: z.string().optional() }).passthrough();
export const perfCounterInfoSchema = z
  .object({
    key: z.number().int(),
    nameInfo: elementDescriptionSchema,
    groupInfo: elementDescriptionSchema,
    rollupType: z.string(),
    unitInfo: elementDescriptionSchema.optional(),
    statsType: z.string().optional(),
  })
  .passthrough();
export type PerfCounterInfo = z.infer<typeof perfCounterInfoSchema>;

/** One PerfSampleInfo: a sample's end time (vCenter's clock) and its length, seconds. */
export interface PerfSampleInfo {
  readonly timestamp: string;
  readonly interval: number;
  readonly [field: string]: unknown;
}

/**
 * An array whose every element passes `check`, checked in one loop: a history reply carries 288
 * samples per entity and per series, and zod's element-by-element parse (a context and a copy per
 * element) took 3.2 of the 4 ms a 32-metric reply cost (JSON.parse 0.8 ms). The array is passed
 * on as it came; the error names the array's path.
 */
function arrayOf<T>(check: (element: unknown) => boolean, what: string): z.ZodType<T[]> {
  return z.custom<T[]>((value) => Array.isArray(value) && value.every(check), { message: `expected an array of ${what}` });
}

const isSampleInfo = (s: unknown): boolean =>
  typeof s === "object" &&
  s !== null &&
  typeof (s as PerfSampleInfo).timestamp === "string" &&
  typeof (s as PerfSampleInfo).interval === "number";

/** One PerfMetricSeries: a counter's values by sample (`PerfMetricIntSeries`). */
export interface PerfMetricSeries {
  readonly id: { readonly counterId: number; readonly instance?: string; readonly [field: string]: unknown };
  readonly value?: number[];
  readonly [field: string]: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * An entity's series, each checked in one loop: zod's object parse of every series and its id (a
 * context and a copy each) was a tenth of what a 250-host warm start allocated. The array is
 * passed on as it came; an issue names the series' path, never a value.
 */
const seriesArray = z.any().superRefine((value: unknown, ctx) => {
  if (value === undefined) return;
  const issue = (path: Array<string | number>, message: string) => ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
  if (!Array.isArray(value)) return issue([], "expected an array of series");
  for (let i = 0; i < value.length; i++) {
    const series: unknown = value[i];
    if (!isObject(series)) return issue([i], "expected a series object");
    const id = series["id"];
    if (!isObject(id) || !Number.isInteger(id["counterId"])) return issue([i, "id", "counterId"], "expected an integer");
    if (id["instance"] !== undefined && typeof id["instance"] !== "string") return issue([i, "id", "instance"], "expected a string");
    const values = series["value"];
    if (values !== undefined && !(Array.isArray(values) && values.every((v) => typeof v === "number")))
      return issue([i, "value"], "expected an array of numbers");
  }
}) as z.ZodType<PerfMetricSeries[] | undefined>;

export const perfEntityMetricSchema = z
  .object({
    entity: moRefSchema,
    sampleInfo: arrayOf<PerfSampleInfo>(isSampleInfo, "{timestamp: string, interval: number}").optional(),
    value: seriesArray,
  })
  .passthrough();
export type PerfEntityMetric = z.infer<typeof perfEntityMetricSchema>;

export const hostSummarySchema = z
  .object({
    hardware: z
      .object({ numCpuCores: z.number().optional(), cpuMhz: z.number().optional(), memorySize: z.number().optional() })
      .passthrough()
      .optional(),
    quickStats: z.object({ overallCpuUsage: z.number().optional(), overallMemoryUsage: z.number().optional() }).passthrough().optional(),
    runtime: z.object({ inMaintenanceMode: z.boolean().optional(), connectionState: z.string().optional() }).passthrough().optional(),
  })
  .passthrough();
export type HostSummaryInfo = z.infer<typeof hostSummarySchema>;

/** One PerfMetricId: a counter key and its instance ("" = the aggregate). */
export interface PerfMetricId {
  readonly _typeName: "PerfMetricId";
  readonly counterId: number;
  readonly instance: string;
}

/**
 * One PerfQuerySpec: real-time (intervalId 20), latest sample only; or historical (intervalId
 * 300, 1800, ...) over a time range. `_typeName` is set on
 * every data object, as VMware's VI/JSON guide recommends for request bodies.
 */
export interface PerfQuerySpec {
  readonly _typeName: "PerfQuerySpec";
  readonly entity: { readonly _typeName: "ManagedObjectReference"; readonly type: string; readonly value: string };
  readonly metricId: readonly PerfMetricId[];
  readonly intervalId: number;
  /** Real-time queries only: the newest N samples. */
  readonly maxSample?: number;
  /** Historical queries: samples ending in (startTime, endTime], vCenter's clock (xsd:dateTime). */
  readonly startTime?: string;
  readonly endTime?: string;
}

/**
 * `OptionValue` as `OptionManager.QueryOptions` returns it. `value` is an `anyType`, so a
 * primitive comes wrapped: `{"_typeName":"int","_value":64}` (or `long`, `string`, ...).
 */
export const optionValueSchema = z
  .object({
    key: z.string(),
    value: z.object({ _typeName: z.string().optional(), _value: z.unknown() }).passthrough().nullable().optional(),
  })
  .passthrough();
export type OptionValue = z.infer<typeof optionValueSchema>;
