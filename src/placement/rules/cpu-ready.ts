import type { HostMetricRule } from "./metric-rule.js";

export interface CpuReadyThresholds {
  /** Reject at or above this CPU ready % per vCPU (host or the node's VM). */
  readonly cpuReadyPercent: number;
  /** "warm" at or above this ready %; scores drop clearly. */
  readonly cpuReadyWarnPercent: number;
}

/** CPU ready per vCPU on the host: the vCPU-weighted mean of its powered-on VMs' (DESIGN: queueing matters most). */
export const cpuReady: HostMetricRule<CpuReadyThresholds, "cpu ready"> = {
  name: "cpu-ready",
  scope: "host",
  metric: "cpu ready",
  unit: "%",
  field: "cpuReadyPercent",
  op: ">=",
  reject: "cpuReadyPercent",
  warn: "cpuReadyWarnPercent",
  relievedByEviction: true,
  predicted: true,
  gauge: { name: "hvx_host_cpu_ready_percent", help: "CPU ready per vCPU on the ESXi host, 0..100, from the latest sample." },
  display: { label: "CPU ready %", digits: 1 },
};
