import { Gauge, type Registry } from "prom-client";
import type { ClusterView } from "../model/cluster.js";
import type { HostMetrics, HostView, InventoryView } from "../model/inventory.js";
import { assessHost, type HostAssessment } from "../placement/assess-host.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { HOST_METRIC_RULES, isOn } from "../placement/rules/index.js";
import { ShownSeries } from "./shown-series.js";

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
  // One gauge per host metric rule that declares one; a metric vCenter did not return has no
  // series (unknown is not 0), nor has a rule left off.
  for (const rule of HOST_METRIC_RULES) {
    if (!rule.gauge) continue;
    new Gauge<HostLabels>({
      name: rule.gauge.name,
      help: rule.gauge.help,
      labelNames: ["host", "cluster"],
      registers,
      collect() {
        this.reset();
        if (!isOn(rule, deps.policy.thresholds)) return;
        for (const host of deps.inventory().hosts.values()) {
          const value = host.metrics?.[rule.field];
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
  const nodeHeat: Gauge<"node" | "heat"> = new Gauge<"node" | "heat">({
    name: "hvx_node_heat",
    help: "1 for the heat of the ESXi host under each mapped Kubernetes node, its own VM included (unknown: missing or stale data).",
    labelNames: ["node", "heat"],
    registers,
    collect() {
      const view = deps.cluster?.();
      const heats = new Map<string, Record<"node" | "heat", string>>();
      const inventory = deps.inventory();
      const nowMs = deps.clock();
      for (const [node, vm] of view ? hostOccupancyOf(view, inventory, deps.policy.nodeMapping).vmOfNode : []) {
        const host = inventory.hosts.get(vm.hostId);
        if (host) heats.set(node, { node, heat: heatLabel(assessHost(host, vm, deps.policy.thresholds, nowMs)) });
      }
      nodeSeries.show(heats);
    },
  });
  const nodeSeries = new ShownSeries(nodeHeat);
}
