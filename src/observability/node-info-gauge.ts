import { Gauge, type Registry } from "prom-client";
import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import type { NodeMappingRule } from "../placement/policy.js";

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
 * the cache, or whose VM moved to another host, keeps no stale series. A scrape with the same
 * nodes and inventory as the last one changes nothing, and only changed nodes' series are
 * touched: with 5000 nodes, setting every series again held the event loop for about 20 ms.
 */
export function registerNodeInfoGauge(registry: Registry, deps: NodeInfoDeps): void {
  let shown: { nodes: ClusterView["nodes"]; inventory: InventoryView } | undefined;
  const series = new Map<string, NodeInfoLabels>();
  new Gauge<keyof NodeInfoLabels>({
    name: "hvx_node_info",
    help: "1 per mapped Kubernetes node: its VM, ESXi host, vSphere cluster and vCenter (join key for Kubernetes-side metrics).",
    labelNames: ["node", "vm", "host", "cluster", "vcenter"],
    registers: [registry],
    collect() {
      const view = deps.cluster();
      const inventory = deps.inventory();
      if (view && shown?.nodes === view.nodes && shown.inventory === inventory) return;
      shown = view ? { nodes: view.nodes, inventory } : undefined;
      const now = view ? nodeInfo(view, inventory, deps) : new Map<string, NodeInfoLabels>();
      for (const [node, labels] of series) {
        if (sameLabels(now.get(node), labels)) continue;
        this.remove(labels);
        series.delete(node);
      }
      for (const [node, labels] of now) {
        if (series.has(node)) continue;
        this.set(labels, 1);
        series.set(node, labels);
      }
    },
  });
}

interface NodeInfoLabels {
  readonly node: string;
  readonly vm: string;
  readonly host: string;
  readonly cluster: string;
  readonly vcenter: string;
}

function nodeInfo(view: ClusterView, inventory: InventoryView, deps: NodeInfoDeps): Map<string, NodeInfoLabels> {
  const info = new Map<string, NodeInfoLabels>();
  for (const [node, vm] of hostOccupancyOf(view, inventory, deps.nodeMapping).vmOfNode) {
    const host = inventory.hosts.get(vm.hostId);
    if (host) info.set(node, { node, vm: vm.name, host: host.name, cluster: host.clusterName ?? "", vcenter: deps.vcenter });
  }
  return info;
}

function sameLabels(a: NodeInfoLabels | undefined, b: NodeInfoLabels): boolean {
  return a !== undefined && a.vm === b.vm && a.host === b.host && a.cluster === b.cluster && a.vcenter === b.vcenter;
}

/** The host name of a vCenter URL (no scheme, port, path or user info): `vc01.example.com`. */
export function vcenterLabel(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
