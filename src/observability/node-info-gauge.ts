import { Gauge, type Registry } from "prom-client";
import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import { ShownSeries } from "./shown-series.js";
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
 * nodes and inventory as the last one maps no node again (`ShownSeries` sets only what changed).
 */
export function registerNodeInfoGauge(registry: Registry, deps: NodeInfoDeps): void {
  let shown: { nodes: ClusterView["nodes"]; inventory: InventoryView } | undefined;
  const gauge: Gauge<NodeInfoLabel> = new Gauge<NodeInfoLabel>({
    name: "hvx_node_info",
    help: "1 per mapped Kubernetes node: its VM, ESXi host, vSphere cluster and vCenter (join key for Kubernetes-side metrics).",
    labelNames: ["node", "vm", "host", "cluster", "vcenter"],
    registers: [registry],
    collect() {
      const view = deps.cluster();
      const inventory = deps.inventory();
      if (view && shown?.nodes === view.nodes && shown.inventory === inventory) return;
      shown = view ? { nodes: view.nodes, inventory } : undefined;
      series.show(view ? nodeInfo(view, inventory, deps) : new Map());
    },
  });
  const series = new ShownSeries(gauge);
}

type NodeInfoLabel = "node" | "vm" | "host" | "cluster" | "vcenter";

function nodeInfo(view: ClusterView, inventory: InventoryView, deps: NodeInfoDeps): Map<string, Record<NodeInfoLabel, string>> {
  const info = new Map<string, Record<NodeInfoLabel, string>>();
  for (const [node, vm] of hostOccupancyOf(view, inventory, deps.nodeMapping).vmOfNode) {
    const host = inventory.hosts.get(vm.hostId);
    if (host) info.set(node, { node, vm: vm.name, host: host.name, cluster: host.clusterName ?? "", vcenter: deps.vcenter });
  }
  return info;
}

/** The host name of a vCenter URL (no scheme, port, path or user info): `vc01.example.com`. */
export function vcenterLabel(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
