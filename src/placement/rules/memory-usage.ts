import type { HostMetricRule } from "./metric-rule.js";

export interface MemoryUsageThresholds {
  readonly hostMemoryUsagePercent: number;
}

export const memoryUsage: HostMetricRule<MemoryUsageThresholds, "memory usage"> = {
  name: "memory-usage",
  scope: "host",
  metric: "memory usage",
  unit: "%",
  field: "memUsagePercent",
  op: ">=",
  reject: "hostMemoryUsagePercent",
  projectedBy: "memory",
  relievedByEviction: true,
  predicted: true,
  gauge: { name: "hvx_host_memory_usage_percent", help: "ESXi host memory usage, 0..100, from the latest sample." },
  display: { label: "memory usage %", digits: 1 },
};
