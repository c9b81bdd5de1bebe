import type { VmMetricRule } from "./metric-rule.js";

/** Any balloon on the node's own VM means ESXi is already taking memory from this node's pods. */
export const vmBalloon: VmMetricRule<Record<never, never>, "balloon"> = {
  name: "vm-balloon",
  scope: "vm",
  metric: "balloon",
  unit: "MiB",
  field: "balloonMiB",
  op: ">",
  reject: 0,
};
