import type { ClusterView } from "../model/cluster.js";
import type { HostView, InventoryView } from "../model/inventory.js";
import { assessHost, clockInputsOf, type HostAssessment } from "../placement/assess-host.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { HOST_METRIC_RULES, isOn } from "../placement/rules/index.js";
import { escapeLabelValue, gaugeHeader, valueText } from "./exposition-text.js";
import type { TextFamilyRegistry } from "./text-family-registry.js";
import { TooOldTimes } from "./too-old-times.js";

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

/** `unknown` when hvx has no opinion and nothing rejects (as /debug/hosts says it): never `cool` by default. */
export function heatLabel(a: HostAssessment): HeatLabel {
  return a.staleness && a.rejections.length === 0 ? "unknown" : a.heat;
}

// Each name a `name:` literal: the monitoring tests find the names hvx exports that way (test/monitoring/metric-names.ts).
const METRIC_AGE = {
  name: "hvx_host_metric_age_seconds",
  help: "Age of the ESXi host's latest performance sample, s (no series without a host-level sample).",
};
const MEMORY_STATE = {
  name: "hvx_host_memory_state",
  help: "1 for the ESXi host's memory state (mem.state: high, clear, soft, hard, low); no series when vCenter did not return it.",
};
const HOST_HEAT = {
  name: "hvx_host_heat",
  help: "1 for the ESXi host's current heat (hot, warm, cool; unknown when its data is missing or stale).",
};

/**
 * Registers the per-host gauges (`hvx_host_*`, `hvx_host_memory_state{state}`, `hvx_host_heat`; `hvx_node_heat` is
 * node-heat-gauge.ts) as text families (`TextFamilyRegistry`). They are computed at scrape time from the latest snapshots, so a
 * host that left the inventory has no series any more, and no timer is needed. A family that depends on the inventory alone keeps
 * its text while the inventory is the same; `hvx_host_heat` also while as many samples are too old (`TooOldTimes`); only the ages
 * are written at every scrape.
 */
export function registerHostGauges(registry: TextFamilyRegistry, deps: HostGaugeDeps): void {
  const labels = new WeakMap<HostView, string>();
  /** `host="...",cluster="..."`: vCenter's host and cluster names (`cluster` empty when vCenter gave none). */
  const labelsOf = (host: HostView): string => {
    let text = labels.get(host);
    if (text === undefined) {
      text = `host="${escapeLabelValue(host.name)}",cluster="${escapeLabelValue(host.clusterName ?? "")}"`;
      labels.set(host, text);
    }
    return text;
  };
  // One gauge per host metric rule that declares one; a metric vCenter did not return has no
  // series (unknown is not 0), nor has a rule left off.
  for (const rule of HOST_METRIC_RULES) {
    if (!rule.gauge) continue;
    addInventoryFamily(registry, deps, rule.gauge, (inventory, samples) => {
      if (!isOn(rule, deps.policy.thresholds)) return;
      for (const host of inventory.hosts.values()) {
        const value = host.metrics?.[rule.field];
        if (value !== undefined && Number.isFinite(value)) samples.set(labelsOf(host), valueText(value));
      }
    });
  }
  const ageHeader = gaugeHeader(METRIC_AGE.name, METRIC_AGE.help);
  registry.addTextFamily({
    name: METRIC_AGE.name,
    render() {
      const nowMs = deps.clock();
      const samples = new Map<string, string>();
      for (const host of deps.inventory().hosts.values()) {
        if (host.metrics) samples.set(labelsOf(host), valueText(Math.max(0, (nowMs - host.metrics.sampledAtMs) / 1000)));
      }
      return familyText(ageHeader, METRIC_AGE.name, samples);
    },
  });
  addInventoryFamily(registry, deps, MEMORY_STATE, (inventory, samples) => {
    for (const host of inventory.hosts.values()) {
      const state = host.metrics?.memState;
      if (state !== undefined) samples.set(`${labelsOf(host)},state="${escapeLabelValue(state)}"`, "1");
    }
  });
  registerHostHeat(registry, deps, labelsOf);
}

/** `hvx_host_heat`: judged again only when the inventory changed or another of its times turned too old. */
function registerHostHeat(registry: TextFamilyRegistry, deps: HostGaugeDeps, labelsOf: (host: HostView) => string): void {
  const { name, help } = HOST_HEAT;
  const header = gaugeHeader(name, help);
  let shown:
    { inventory: InventoryView; thresholds: PlacementPolicy["thresholds"]; times: TooOldTimes; tooOld: number; text: string } | undefined;
  registry.addTextFamily({
    name,
    render() {
      const inventory = deps.inventory();
      const thresholds = deps.policy.thresholds;
      const nowMs = deps.clock();
      const same = shown?.inventory === inventory && shown.thresholds === thresholds;
      const times = same ? shown!.times : new TooOldTimes([...inventory.hosts.values()].flatMap((host) => clockInputsOf(host, undefined)));
      const tooOld = times.count(nowMs, thresholds);
      if (same && shown!.tooOld === tooOld) return shown!.text;
      const samples = new Map<string, string>();
      for (const host of inventory.hosts.values()) {
        samples.set(`${labelsOf(host)},heat="${heatLabel(assessHost(host, undefined, thresholds, nowMs))}"`, "1");
      }
      const text = familyText(header, name, samples);
      shown = { inventory, thresholds, times, tooOld, text };
      return text;
    },
  });
}

/** A family whose samples depend on the inventory (and the thresholds) alone: its text is kept while they are the same. */
function addInventoryFamily(
  registry: TextFamilyRegistry,
  deps: HostGaugeDeps,
  { name, help }: { readonly name: string; readonly help: string },
  fill: (inventory: InventoryView, samples: Map<string, string>) => void,
): void {
  const header = gaugeHeader(name, help);
  let shown: { inventory: InventoryView; thresholds: PlacementPolicy["thresholds"]; text: string } | undefined;
  registry.addTextFamily({
    name,
    render() {
      const inventory = deps.inventory();
      const thresholds = deps.policy.thresholds;
      if (shown?.inventory === inventory && shown.thresholds === thresholds) return shown.text;
      const samples = new Map<string, string>();
      fill(inventory, samples);
      shown = { inventory, thresholds, text: familyText(header, name, samples) };
      return shown.text;
    },
  });
}

/**
 * The family's text from its samples (label text -> value text). Keyed by labels as prom-client
 * keys a gauge's series: two hosts with the same names are one series, the last one's value.
 */
function familyText(header: string, name: string, samples: ReadonlyMap<string, string>): string {
  const lines = [header];
  for (const [labels, value] of samples) lines.push(`${name}{${labels}} ${value}\n`);
  return lines.join("");
}
