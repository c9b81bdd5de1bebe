import { Counter, type Registry } from "prom-client";

/** Why a request was refused before any handler saw it. */
export type Refusal = "too_large" | "encoded" | "busy";

export type RefusalCounter = (port: "extender" | "admission", reason: Refusal) => void;

/** `hvx_http_requests_refused_total{port, reason}`: oversized (413), compressed (415) or over the body budget (503). */
export function createRefusalMetrics(registry: Registry): RefusalCounter {
  const refused = new Counter({
    name: "hvx_http_requests_refused_total",
    help: "Requests refused before handling, by port (extender, admission) and reason (too_large 413, encoded 415, busy 503).",
    labelNames: ["port", "reason"] as const,
    registers: [registry],
  });
  for (const port of ["extender", "admission"] as const)
    for (const reason of ["too_large", "encoded", "busy"] as const) refused.inc({ port, reason }, 0);
  return (port, reason) => refused.inc({ port, reason });
}
