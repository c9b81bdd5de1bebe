import type { HostMetricRule } from "./metric-rule.js";

export interface BalloonThresholds {
  /** Host balloon as % of host memory. */
  readonly balloonPercent: number;
}

export const balloon: HostMetricRule<BalloonThresholds, "balloon"> = {
  name: "balloon",
  scope: "host",
  metric: "balloon",
  unit: "%",
  field: "balloonPercent",
  op: ">=",
  reject: "balloonPercent",
  relievedByEviction: true,
  predicted: true,
  gauge: { name: "hvx_host_balloon_percent", help: "Memory reclaimed by balloon drivers on the ESXi host, % of its physical memory." },
  // Operators read balloon in MiB; the rule judges the share of host memory.
  display: { label: "balloon MiB", field: "balloonMiB", digits: 0 },
};
