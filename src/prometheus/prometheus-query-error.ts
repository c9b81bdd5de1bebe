/**
 * A Prometheus query that did not give a usable answer: an error status (`{"status":"error",
 * "errorType":"bad_data","error":"..."}`), a non-JSON body, or no answer at all. `kind` is the
 * poll-failure label (`network`, `http`, `response`), as for vCenter errors.
 */
export class PrometheusQueryError extends Error {
  override name = "PrometheusQueryError";
  constructor(
    readonly kind: "network" | "http" | "response" | "config",
    message: string,
    readonly status?: number,
    readonly errorType?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
