import type { Registry } from "prom-client";
import type { Config } from "../config/index.js";
import { registerHostGauges } from "../observability/host-gauges.js";
import { registerNodeInfoGauge } from "../observability/node-info-gauge.js";
import type { ClusterSide } from "./start-cluster-side.js";
import type { VsphereSide } from "./start-vsphere-side.js";

/** The per-host metric gauges and `hvx_node_info` (node -> VM -> host), read from the latest views at each scrape. */
export function registerInventoryGauges(registry: Registry, config: Readonly<Config>, vsphere: VsphereSide, cluster: ClusterSide): void {
  const inventory = () => vsphere.poller.latest();
  const clusterView = () => cluster.informer?.latest();
  registerHostGauges(registry, { inventory, cluster: clusterView, policy: config, clock: Date.now });
  registerNodeInfoGauge(registry, { inventory, cluster: clusterView, nodeMapping: config.nodeMapping, vcenter: vsphere.vcenterLabel });
}
