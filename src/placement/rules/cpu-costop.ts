import type { HostMetricRule } from "./metric-rule.js";

export interface CpuCostopThresholds {
  /** Reject at or above this CPU co-stop % per vCPU on the host; unset (the default): the rule is off. */
  readonly cpuCostopPercent?: number;
}

/**
 * CPU co-stop per vCPU on the host (cpu.costop.summation, the vCPU-weighted mean of its
 * powered-on VMs'): wide VMs waiting for their sibling vCPUs to be co-scheduled. Off unless
 * `thresholds.cpuCostopPercent` is set; warm at 0.9 x it.
 */
export const cpuCostop: HostMetricRule<CpuCostopThresholds, "cpu co-stop"> = {
  name: "cpu-costop",
  scope: "host",
  metric: "cpu co-stop",
  unit: "%",
  field: "cpuCostopPercent",
  op: ">=",
  reject: "cpuCostopPercent",
  // Like ready, it falls as the VMs' load falls: moving pods off the host relieves it.
  relievedByEviction: true,
  predicted: false,
  gauge: { name: "hvx_host_cpu_costop_percent", help: "CPU co-stop per vCPU on the ESXi host, 0..100, from the latest sample." },
  display: { label: "CPU co-stop %", digits: 1 },
};
