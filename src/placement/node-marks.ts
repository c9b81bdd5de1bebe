import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { readHeat, type HeatReading } from "./heat-mark.js";
import { PlacementIndex } from "./placement-index.js";
import type { PlacementPolicy } from "./policy.js";

export interface NodeMarks {
  /** ESXi host name for the `hvx.io/esxi-host` label; undefined when the node maps to no host. */
  readonly hostLabel?: string;
  /** This poll's reading of the host's heat; the node labeller turns it into the `hvx.io/host-heat` text. */
  readonly heat: HeatReading;
}

/**
 * A decision: what each node should carry, its ESXi host and a reading of the host's heat (with
 * the node's own VM); the node labeller (an adapter) only compares and patches. A node hvx
 * cannot judge (unmapped, stale metrics) gets no entry, so the labeller leaves it as it is
 * rather than calling it cool.
 */
export function desiredNodeMarks(
  cluster: ClusterView,
  inventory: InventoryView,
  policy: PlacementPolicy,
  nowMs: number,
  hysteresisPercent = 10,
  index: PlacementIndex = new PlacementIndex(inventory, policy, undefined),
): Map<string, NodeMarks> {
  const out = new Map<string, NodeMarks>();
  for (const node of cluster.nodes.values()) {
    const vm = index.vmOf(node);
    const host = vm ? inventory.hosts.get(vm.hostId) : undefined;
    if (!vm || !host) continue;
    const heat = readHeat(host, vm, policy.thresholds, nowMs, hysteresisPercent);
    if (heat) out.set(node.name, { hostLabel: host.name, heat });
  }
  return out;
}
