import { collectDefaultMetrics } from "prom-client";
import { hvxVersion } from "../build-info.js";
import { registerBuildInfoGauge } from "../observability/build-info-gauge.js";
import type { Logger } from "../observability/logger.js";
import { TextFamilyRegistry } from "../observability/text-family-registry.js";
import { installUnhandledRejectionHandler } from "../observability/unhandled-rejections.js";
import type { Stop } from "./stops.js";

/** The process's one metric registry, with Node.js's standard metrics, the build info and the unhandled-rejection counter. */
export function createMetricsRegistry(log: Logger, stops: Stop[]): TextFamilyRegistry {
  const registry = new TextFamilyRegistry();
  // Standard names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, ...), as dashboards expect them.
  collectDefaultMetrics({ register: registry });
  registerBuildInfoGauge(registry, { version: hvxVersion(), nodeVersion: process.version });
  stops.push(installUnhandledRejectionHandler(log, registry));
  return registry;
}
