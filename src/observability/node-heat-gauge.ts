import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { assessHost, clockInputsOf } from "../placement/assess-host.js";
import type { ThresholdPolicy } from "../placement/policy.js";
import { heatLabel, type HostGaugeDeps } from "./host-gauges.js";
import { mappedNodes } from "./mapped-nodes.js";
import { SeriesPerKey, type PutSeries } from "./series-per-key.js";
import type { TextFamilyRegistry } from "./text-family-registry.js";
import { TooOldTimes } from "./too-old-times.js";

interface Shown {
  readonly nodes: ClusterView["nodes"] | undefined;
  readonly inventory: InventoryView;
  readonly thresholds: ThresholdPolicy;
  /** Every time the shown verdicts test with `isTooOld`. */
  readonly times: TooOldTimes;
  /** How many of `times` were too old when the text was rendered. */
  readonly tooOld: number;
  readonly text: string;
}

/**
 * `hvx_node_heat{node, heat} 1`: the heat of the ESXi host under each mapped Kubernetes node, its
 * own VM included, as text (`TextFamilyRegistry`). The verdicts depend on the clock only through
 * which samples and inventory entries are too old (`TooOldTimes`): a scrape with the same nodes and
 * inventory, and as many of those times too old, returns the last text; otherwise every node is
 * judged again and only a node whose heat changed gets a new line.
 */
export function registerNodeHeatGauge(registry: TextFamilyRegistry, deps: HostGaugeDeps): void {
  const series = new SeriesPerKey(
    "hvx_node_heat",
    "1 for the heat of the ESXi host under each mapped Kubernetes node, its own VM included (unknown: missing or stale data).",
    ["node", "heat"],
  );
  let shown: Shown | undefined;
  registry.addTextFamily({
    name: "hvx_node_heat",
    render() {
      const view = deps.cluster?.();
      const inventory = deps.inventory();
      const thresholds = deps.policy.thresholds;
      const nowMs = deps.clock();
      const same = shown && shown.nodes === view?.nodes && shown.inventory === inventory && shown.thresholds === thresholds;
      const times = same ? shown!.times : new TooOldTimes(view ? clockInputs(view, inventory, deps) : []);
      const tooOld = times.count(nowMs, thresholds);
      if (same && shown!.tooOld === tooOld) return shown!.text;
      const text = series.render((put) => {
        if (view) putNodeHeats(put, view, inventory, deps, nowMs);
      });
      shown = { nodes: view?.nodes, inventory, thresholds, times, tooOld, text };
      return text;
    },
  });
}

function putNodeHeats(put: PutSeries, view: ClusterView, inventory: InventoryView, deps: HostGaugeDeps, nowMs: number): void {
  for (const [node, vm] of mappedNodes(view, inventory, deps.policy.nodeMapping)) {
    const host = inventory.hosts.get(vm.hostId);
    if (host) put(node, [node, heatLabel(assessHost(host, vm, deps.policy.thresholds, nowMs))]);
  }
}

function clockInputs(view: ClusterView, inventory: InventoryView, deps: HostGaugeDeps): Set<number> {
  const times = new Set<number>();
  for (const vm of mappedNodes(view, inventory, deps.policy.nodeMapping).values()) {
    const host = inventory.hosts.get(vm.hostId);
    if (host) for (const time of clockInputsOf(host, vm)) times.add(time);
  }
  return times;
}
