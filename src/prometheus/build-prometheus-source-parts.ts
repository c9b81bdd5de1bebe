import { readFileSync } from "node:fs";
import type { Registry } from "prom-client";
import type { Config } from "../config/schema.js";
import type { Logger } from "../observability/logger.js";
import { PrometheusClient } from "./prometheus-client.js";
import { createPrometheusSourceMetrics } from "./prometheus-metrics.js";
import type { PrometheusSourceParts } from "./prometheus-poller.js";
import { PrometheusQueryError } from "./prometheus-query-error.js";
import { createVcenterInventoryReader } from "./vcenter-inventory-reader.js";

export interface PrometheusSourceConfig {
  readonly prometheus: Config["prometheus"];
  /** Used by the telegraf flavour only (inventory without QueryPerf). */
  readonly vcenter: Config["vcenter"];
  readonly log: Logger;
  readonly registry: Registry;
  readonly clock?: () => number;
}

/**
 * The Prometheus source's parts from the validated config, for the composition root to hand to
 * `PrometheusPoller`: its metrics, the HTTP client, and (telegraf) the vCenter inventory reader.
 */
export function buildPrometheusSourceParts(o: PrometheusSourceConfig): PrometheusSourceParts {
  const p = o.prometheus;
  if (!p.url) throw new PrometheusQueryError("config", "prometheus.url is required with metrics.source: prometheus");
  const metrics = createPrometheusSourceMetrics(o.registry);
  const querier = new PrometheusClient({
    url: p.url,
    timeoutMs: p.requestTimeoutSeconds * 1000,
    insecureSkipTLSVerify: p.insecureSkipTLSVerify,
    ...(p.bearerTokenFile !== undefined ? { bearerTokenFile: p.bearerTokenFile } : {}),
    ...(p.username !== undefined ? { username: p.username } : {}),
    ...(p.password !== undefined ? { password: p.password } : {}),
    ...(p.caFile !== undefined ? { caPem: readCa(p.caFile, "prometheus.caFile") } : {}),
    onRequest: (outcome) => metrics.countQuery(outcome),
  });
  let inventory;
  if (p.flavour === "telegraf") {
    const caPem = o.vcenter.caFile !== undefined ? readCa(o.vcenter.caFile, "vcenter.caFile") : undefined;
    inventory = createVcenterInventoryReader(o.vcenter, caPem, o.log, o.registry, o.clock ?? Date.now);
  }
  if (p.insecureSkipTLSVerify) o.log.warn("prometheus.insecureSkipTLSVerify is true: the Prometheus certificate is not verified");
  return { metrics, querier, ...(inventory ? { inventory } : {}) };
}

function readCa(path: string, key: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new PrometheusQueryError("config", `cannot read ${key} ${path}: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
}
