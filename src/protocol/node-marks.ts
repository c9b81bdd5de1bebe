import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { assessHost } from "../placement/assess-host.js";
import { mapNodeToVm, vmIndexOf } from "../placement/map-node.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { formatReason } from "./format-reason.js";

export interface NodeMarks {
  /** ESXi host name for the `hvx.io/esxi-host` label; undefined when the node maps to no host. */
  readonly hostLabel?: string;
  /** `hvx.io/host-heat`: `cool`, `warm: <reason>` or `hot: <reason>` (DESIGN conventions). */
  readonly heat: string;
}

/**
 * What each node should carry: its ESXi host and the host's heat with the first reason.
 * A node hvx cannot judge (unmapped, stale metrics) gets no entry, so the labeller leaves
 * it as it is rather than calling it cool.
 */
export function desiredNodeMarks(cluster: ClusterView, inventory: InventoryView, policy: PlacementPolicy, nowMs: number): Map<string, NodeMarks> {
  const index = vmIndexOf(inventory);
  const out = new Map<string, NodeMarks>();
  for (const node of cluster.nodes.values()) {
    const vm = mapNodeToVm(node, index, policy.nodeMapping);
    const host = vm ? inventory.hosts.get(vm.hostId) : undefined;
    if (!vm || !host) continue;
    const a = assessHost(host, vm, policy.thresholds, nowMs);
    if (a.staleness && a.rejections.length === 0) continue;
    const first = a.rejections[0] ?? a.warnings[0];
    out.set(node.name, { hostLabel: host.name, heat: first ? `${a.heat}: ${formatReason(first)}` : "cool" });
  }
  return out;
}
