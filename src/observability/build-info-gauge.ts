import { Gauge, type Registry } from "prom-client";

/**
 * `hvx_build_info{version, node_version} 1`: which hvx runs on which Node.js, one series per
 * process (both labels are fixed at start, never taken from a request).
 */
export function registerBuildInfoGauge(registry: Registry, build: { version: string; nodeVersion: string }): void {
  new Gauge<"version" | "node_version">({
    name: "hvx_build_info",
    help: "1, labelled with hvx's version and the Node.js version it runs on.",
    labelNames: ["version", "node_version"],
    registers: [registry],
  }).set({ version: build.version, node_version: build.nodeVersion }, 1);
}
