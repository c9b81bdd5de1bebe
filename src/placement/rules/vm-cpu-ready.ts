import type { CpuReadyThresholds } from "./cpu-ready.js";
import type { VmMetricRule } from "./metric-rule.js";

/** The node's own VM's CPU ready per vCPU, against the host's ready thresholds. */
export const vmCpuReady: VmMetricRule<CpuReadyThresholds, "cpu ready"> = {
  name: "vm-cpu-ready",
  scope: "vm",
  metric: "cpu ready",
  unit: "%",
  field: "cpuReadyPercent",
  op: ">=",
  reject: "cpuReadyPercent",
  warn: "cpuReadyWarnPercent",
};
