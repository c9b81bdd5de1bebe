import type { Config } from "../config/index.js";
import { registerHostGauges } from "../observability/host-gauges.js";
import { registerNodeHeatGauge } from "../observability/node-heat-gauge.js";
import { registerNodeInfoGauge } from "../observability/node-info-gauge.js";
import type { TextFamilyRegistry } from "../observability/text-family-registry.js";
import type { ClusterSide } from "./start-cluster-side.js";
import type { VsphereSide } from "./start-vsphere-side.js";

/** The per-host metric gauges, `hvx_node_heat` and `hvx_node_info` (node -> VM -> host), read from the latest views at each scrape. */
export function registerInventoryGauges(
  registry: TextFamilyRegistry,
  config: Readonly<Config>,
  vsphere: VsphereSide,
  cluster: ClusterSide,
): void {
  const inventory = () => vsphere.poller.latest();
  const clusterView = () => cluster.informer?.latest();
  const hostDeps = { inventory, cluster: clusterView, policy: config, clock: Date.now };
  registerHostGauges(registry, hostDeps);
  registerNodeHeatGauge(registry, hostDeps);
  registerNodeInfoGauge(registry, { inventory, cluster: clusterView, nodeMapping: config.nodeMapping, vcenter: vsphere.vcenterLabel });
}
