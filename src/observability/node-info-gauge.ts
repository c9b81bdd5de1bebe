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
 * the cache, or whose VM moved to another host, keeps no stale series.
 */
export function registerNodeInfoGauge(registry: Registry, deps: NodeInfoDeps): void {
  new Gauge<"node" | "vm" | "host" | "cluster" | "vcenter">({
    name: "hvx_node_info",
    help: "1 per mapped Kubernetes node: its VM, ESXi host, vSphere cluster and vCenter (join key for Kubernetes-side metrics).",
    labelNames: ["node", "vm", "host", "cluster", "vcenter"],
    registers: [registry],
    collect() {
      this.reset();
      const view = deps.cluster();
      if (!view) return;
      const inventory = deps.inventory();
      for (const [node, vm] of hostOccupancyOf(view, inventory, deps.nodeMapping).vmOfNode) {
        const host = inventory.hosts.get(vm.hostId);
        if (host) this.set({ node, vm: vm.name, host: host.name, cluster: host.clusterName ?? "", vcenter: deps.vcenter }, 1);
      }
    },
  });
}

/** The host name of a vCenter URL (no scheme, port, path or user info): `vc01.example.com`. */
export function vcenterLabel(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}
