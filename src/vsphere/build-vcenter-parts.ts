import { readFileSync } from "node:fs";
import type { Registry } from "prom-client";
import type { Config } from "../config/schema.js";
import type { Logger } from "../observability/logger.js";
import { createPollerMetrics, type PollerMetrics } from "./poller-metrics.js";
import { createPredictionMetrics, type PredictionMetrics } from "./prediction-metrics.js";
import { VcenterConfigError } from "./vcenter-config-error.js";
import { createVcenterHttp, type VcenterSend } from "./vcenter-http.js";

/** What a `VcenterPoller` polls through: its metrics and the HTTP transport to one vCenter. */
export interface VcenterParts {
  readonly metrics: PollerMetrics;
  /** Every request to vCenter (both APIs), counted in `metrics`; closed when the poller stops. */
  readonly http: { readonly send: VcenterSend; close(): void };
  /** The load profiles' metrics (`prediction.enabled`). */
  readonly predictionMetrics: PredictionMetrics;
}

export interface VcenterPartsConfig {
  readonly vcenter: Config["vcenter"];
  /** `vcenters[].name` when several vCenters are polled: the `vcenter` label of the metrics. */
  readonly name?: string;
  readonly log: Logger;
  readonly registry: Registry;
}

/**
 * One vCenter's parts from the validated config, for the composition root to hand to
 * `VcenterPoller` (which refuses missing credentials). Refuses a config without URL.
 */
export function buildVcenterParts(o: VcenterPartsConfig): VcenterParts {
  const vc = o.vcenter;
  if (!vc.url) {
    throw new VcenterConfigError("vcenter.url is required to poll a vCenter (without it, start the bundled mock)");
  }
  const metrics = createPollerMetrics(o.registry, o.name);
  const http = createVcenterHttp({
    baseUrl: vc.url,
    timeoutMs: vc.requestTimeoutSeconds * 1000,
    ...(vc.caFile !== undefined ? { caPem: readCaFile(vc.caFile) } : {}),
    insecureSkipTLSVerify: vc.insecureSkipTLSVerify,
    maxConcurrency: vc.maxConcurrency,
    onRequest: (api, outcome) => metrics.countRequest(api, outcome),
  });
  if (vc.insecureSkipTLSVerify) o.log.warn("vcenter.insecureSkipTLSVerify is true: the vCenter certificate is not verified");
  return { metrics, http, predictionMetrics: createPredictionMetrics(o.registry, o.name) };
}

function readCaFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new VcenterConfigError(`cannot read vcenter.caFile ${path}: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
}
