import { Gauge, type Registry } from "prom-client";
import type { ClusterView } from "../model/cluster.js";
import type { HostMetrics, HostView, InventoryView } from "../model/inventory.js";
import { assessHost, type HostAssessment } from "../placement/assess-host.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import type { PlacementPolicy } from "../placement/policy.js";

/** A heat word as the gauges label it: `unknown` when hvx has no opinion (missing or stale data). */
export type HeatLabel = "hot" | "warm" | "cool" | "unknown";
export const HEAT_LABELS: readonly HeatLabel[] = ["hot", "warm", "cool", "unknown"];

export interface HostGaugeDeps {
  readonly inventory: () => InventoryView;
  /** The informer cache; undefined without Kubernetes access (then no `hvx_node_heat` series). */
  readonly cluster?: () => ClusterView | undefined;
  readonly policy: Pick<PlacementPolicy, "thresholds" | "nodeMapping">;
  /** Epoch ms. */
  readonly clock: () => number;
}

type HostLabels = "host" | "cluster";
type MetricField = "cpuReadyPercent" | "cpuUsagePercent" | "memUsagePercent" | "balloonPercent" | "swapInKBps";

/** One gauge per host metric; a metric vCenter did not return has no series (unknown is not 0). */
const METRIC_GAUGES: ReadonlyArray<{ name: string; help: string; field: MetricField }> = [
  {
    name: "hvx_host_cpu_ready_percent",
    help: "CPU ready per vCPU on the ESXi host, 0..100, from the latest sample.",
    field: "cpuReadyPercent",
  },
  { name: "hvx_host_cpu_usage_percent", help: "ESXi host CPU usage, 0..100, from the latest sample.", field: "cpuUsagePercent" },
  { name: "hvx_host_memory_usage_percent", help: "ESXi host memory usage, 0..100, from the latest sample.", field: "memUsagePercent" },
  {
    name: "hvx_host_balloon_percent",
    help: "Memory reclaimed by balloon drivers on the ESXi host, % of its physical memory.",
    field: "balloonPercent",
  },
  { name: "hvx_host_swapin_kbps", help: "Host swap-in rate on the ESXi host, KB/s, from the latest sample.", field: "swapInKBps" },
];

/** `unknown` when hvx has no opinion and nothing rejects (as /debug/hosts says it): never `cool` by default. */
export function heatLabel(a: HostAssessment): HeatLabel {
  return a.staleness && a.rejections.length === 0 ? "unknown" : a.heat;
}

/** Labels of a host: vCenter's host and cluster names (`cluster` empty when vCenter gave none). */
export function hostLabels(host: HostView): Record<HostLabels, string> {
  return { host: host.name, cluster: host.clusterName ?? "" };
}

/**
 * Registers the per-host gauges (`hvx_host_*`, `hvx_host_memory_state{state}`) and `hvx_node_heat{node,heat}`. They are computed
 * at scrape time from the latest snapshots, so a host that left the inventory (or a node that
 * left the cache) has no series any more, and no timer is needed.
 */
export function registerHostGauges(registry: Registry, deps: HostGaugeDeps): void {
  const registers = [registry];
  for (const g of METRIC_GAUGES) {
    new Gauge<HostLabels>({
      name: g.name,
      help: g.help,
      labelNames: ["host", "cluster"],
      registers,
      collect() {
        this.reset();
        for (const host of deps.inventory().hosts.values()) {
          const value = host.metrics?.[g.field];
          if (value !== undefined && Number.isFinite(value)) this.set(hostLabels(host), value);
        }
      },
    });
  }
  new Gauge<HostLabels>({
    name: "hvx_host_metric_age_seconds",
    help: "Age of the ESXi host's latest performance sample, s (no series without a host-level sample).",
    labelNames: ["host", "cluster"],
    registers,
    collect() {
      this.reset();
      const nowMs = deps.clock();
      for (const host of deps.inventory().hosts.values()) {
        const m: HostMetrics | undefined = host.metrics;
        if (m) this.set(hostLabels(host), Math.max(0, (nowMs - m.sampledAtMs) / 1000));
      }
    },
  });
  new Gauge<HostLabels | "state">({
    name: "hvx_host_memory_state",
    help: "1 for the ESXi host's memory state (mem.state: high, clear, soft, hard, low); no series when vCenter did not return it.",
    labelNames: ["host", "cluster", "state"],
    registers,
    collect() {
      this.reset();
      for (const host of deps.inventory().hosts.values()) {
        const state = host.metrics?.memState;
        if (state !== undefined) this.set({ ...hostLabels(host), state }, 1);
      }
    },
  });
  new Gauge<HostLabels | "heat">({
    name: "hvx_host_heat",
    help: "1 for the ESXi host's current heat (hot, warm, cool; unknown when its data is missing or stale).",
    labelNames: ["host", "cluster", "heat"],
    registers,
    collect() {
      this.reset();
      const nowMs = deps.clock();
      for (const host of deps.inventory().hosts.values()) {
        this.set({ ...hostLabels(host), heat: heatLabel(assessHost(host, undefined, deps.policy.thresholds, nowMs)) }, 1);
      }
    },
  });
  new Gauge<"node" | "heat">({
    name: "hvx_node_heat",
    help: "1 for the heat of the ESXi host under each mapped Kubernetes node, its own VM included (unknown: missing or stale data).",
    labelNames: ["node", "heat"],
    registers,
    collect() {
      this.reset();
      const view = deps.cluster?.();
      if (!view) return;
      const inventory = deps.inventory();
      const nowMs = deps.clock();
      for (const [node, vm] of hostOccupancyOf(view, inventory, deps.policy.nodeMapping).vmOfNode) {
        const host = inventory.hosts.get(vm.hostId);
        if (host) this.set({ node, heat: heatLabel(assessHost(host, vm, deps.policy.thresholds, nowMs)) }, 1);
      }
    },
  });
}
