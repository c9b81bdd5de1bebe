import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import type { NodeMappingRule } from "../placement/policy.js";
import { mappedNodes } from "./mapped-nodes.js";
import { SeriesPerKey, type PutSeries } from "./series-per-key.js";
import type { TextFamilyRegistry } from "./text-family-registry.js";

export interface NodeInfoDeps {
  readonly inventory: () => InventoryView;
  /** The informer cache; undefined before it exists (then no series). */
  readonly cluster: () => ClusterView | undefined;
  readonly nodeMapping: readonly NodeMappingRule[];
  /** The vCenter's host name, for the `vcenter` label (never a URL with credentials). */
  readonly vcenter: string;
}

/**
 * `hvx_node_info{node, vm, host, cluster, vcenter} 1` for every node of the informer cache that
 * maps to a VM on a polled host: the join key from Kubernetes-side metrics to ESXi hosts
 * (`* on(node) group_left(host) hvx_node_info`). Computed at scrape time, so a node that left
 * the cache, or whose VM moved to another host, keeps no stale series. Rendered as text
 * (`TextFamilyRegistry`): a scrape with the same nodes and inventory as the last one returns the
 * last text; after a change only the nodes whose labels changed get a new line.
 */
export function registerNodeInfoGauge(registry: TextFamilyRegistry, deps: NodeInfoDeps): void {
  const series = new SeriesPerKey(
    "hvx_node_info",
    "1 per mapped Kubernetes node: its VM, ESXi host, vSphere cluster and vCenter (join key for Kubernetes-side metrics).",
    ["node", "vm", "host", "cluster", "vcenter"],
  );
  let shown: { nodes: ClusterView["nodes"] | undefined; inventory: InventoryView; text: string } | undefined;
  registry.addTextFamily({
    name: "hvx_node_info",
    render() {
      const view = deps.cluster();
      const inventory = deps.inventory();
      if (shown && shown.nodes === view?.nodes && shown.inventory === inventory) return shown.text;
      const text = series.render((put) => {
        if (view) putNodeInfo(put, view, inventory, deps);
      });
      shown = { nodes: view?.nodes, inventory, text };
      return text;
    },
  });
}

function putNodeInfo(put: PutSeries, view: ClusterView, inventory: InventoryView, deps: NodeInfoDeps): void {
  for (const [node, vm] of mappedNodes(view, inventory, deps.nodeMapping)) {
    const host = inventory.hosts.get(vm.hostId);
    if (host) put(node, [node, vm.name, host.name, host.clusterName ?? "", deps.vcenter]);
  }
}

/** The host name of a vCenter URL (no scheme, port, path or user info): `vc01.example.com`. */
export function vcenterLabel(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
