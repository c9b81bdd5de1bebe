import type { HostMetricRule } from "./metric-rule.js";

export interface SwapInThresholds {
  readonly swapInKBps: number;
}

/** Host swap-in rate: active pain, unlike the swapped total. */
export const swapIn: HostMetricRule<SwapInThresholds, "swap-in rate"> = {
  name: "swap-in",
  scope: "host",
  metric: "swap-in rate",
  unit: "KB/s",
  field: "swapInKBps",
  op: ">=",
  reject: "swapInKBps",
  relievedByEviction: true,
  predicted: true,
  gauge: { name: "hvx_host_swapin_kbps", help: "Host swap-in rate on the ESXi host, KB/s, from the latest sample." },
  display: { label: "swap-in KB/s", digits: 0 },
};
