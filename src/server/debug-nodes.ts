import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import { explainNodeMapping } from "../placement/explain-mapping.js";
import { vmIndexOf } from "../placement/map-node.js";
import type { NodeMappingRule } from "../placement/policy.js";
import type { DebugNodesReply } from "../protocol/debug-wire.js";

/**
 * `GET /debug/nodes`: every node with the mapping rule that matched, its VM and host, or why
 * it is unmapped. Nodes come from the informer cache when it is synced, else from the nodes
 * kube-scheduler sent in recent requests.
 */
/** Whether /debug/nodes lists the informer's nodes (once synced), not the nodes of recent requests. */
export function listsFromCache(cluster: ClusterView | undefined): cluster is ClusterView {
  return cluster?.syncedAtMs !== undefined;
}

export function buildDebugNodes(
  inventory: InventoryView,
  rules: readonly NodeMappingRule[],
  cluster: ClusterView | undefined,
  recent: () => readonly NodeIdentity[],
): DebugNodesReply {
  const fromCache = listsFromCache(cluster);
  const nodes = fromCache ? [...cluster.nodes.values()].sort((a, b) => a.name.localeCompare(b.name)) : recent();
  const vms = vmIndexOf(inventory);
  const mappings = nodes.map((n) => ({
    ...explainNodeMapping(n, inventory, rules, vms),
    providerID: n.providerID ?? null,
    systemUUID: n.systemUUID ?? null,
  }));
  return {
    source: fromCache ? "informer cache" : "nodes seen in recent extender requests (no Kubernetes cache)",
    rules,
    mapped: mappings.filter((m) => m.mapped).length,
    unmapped: mappings.filter((m) => !m.mapped).length,
    nodes: mappings,
  };
}
