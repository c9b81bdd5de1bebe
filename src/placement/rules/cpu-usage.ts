import type { HostMetricRule } from "./metric-rule.js";

export interface CpuUsageThresholds {
  readonly hostCpuUsagePercent: number;
}

/** Host CPU usage. Evicting pods does not end it (the scheduler already keeps new pods away). */
export const cpuUsage: HostMetricRule<CpuUsageThresholds, "cpu usage"> = {
  name: "cpu-usage",
  scope: "host",
  metric: "cpu usage",
  unit: "%",
  field: "cpuUsagePercent",
  op: ">=",
  reject: "hostCpuUsagePercent",
  projectedBy: "cpu",
  relievedByEviction: false,
  predicted: true,
  gauge: { name: "hvx_host_cpu_usage_percent", help: "ESXi host CPU usage, 0..100, from the latest sample." },
  display: { label: "CPU usage %", digits: 1 },
};
