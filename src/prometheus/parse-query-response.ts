import { z } from "zod";
import { PrometheusQueryError } from "./prometheus-query-error.js";

/** One element of an instant vector: its labels, value and time (epoch ms). */
export interface PromSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly atMs: number;
}

const sampleSchema = z.object({
  metric: z.record(z.string()),
  value: z.tuple([z.number(), z.string()]),
});
const successSchema = z.object({
  status: z.literal("success"),
  data: z.object({ resultType: z.literal("vector"), result: z.array(sampleSchema) }),
});
const errorSchema = z.object({ status: z.literal("error"), errorType: z.string().optional(), error: z.string().optional() });

/**
 * Parses a `GET /api/v1/query` answer (`{"status":"success","data":{"resultType":"vector",
 * "result":[{"metric":{...},"value":[<unix s>,"<value>"]}]}}`). Values that are not finite
 * numbers (`"NaN"`, `"+Inf"`) are dropped: unknown, never 0. An error body, another result
 * type or a malformed body throws PrometheusQueryError.
 */
export function parseQueryResponse(status: number, bodyText: string, query: string): PromSample[] {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new PrometheusQueryError(
      status >= 400 ? "http" : "response",
      `Prometheus answered ${status} with a body that is not JSON for ${query}`,
      status,
    );
  }
  const failed = errorSchema.safeParse(body);
  if (failed.success) {
    const type = failed.data.errorType ?? "unknown";
    throw new PrometheusQueryError(
      "http",
      `Prometheus query failed (${status} ${type}: ${failed.data.error ?? ""}) for ${query}`,
      status,
      type,
    );
  }
  if (status < 200 || status >= 300) throw new PrometheusQueryError("http", `Prometheus answered ${status} for ${query}`, status);
  const ok = successSchema.safeParse(body);
  if (!ok.success) throw new PrometheusQueryError("response", `Prometheus answer is not an instant vector for ${query}`, status);
  const out: PromSample[] = [];
  for (const s of ok.data.data.result) {
    const value = Number(s.value[1]);
    if (!Number.isFinite(value)) continue;
    out.push({ labels: s.metric, value, atMs: Math.round(s.value[0] * 1000) });
  }
  return out;
}
