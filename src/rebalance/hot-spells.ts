import type { InventoryView } from "../model/inventory.js";
import { assessHostAlone } from "../placement/assess-host.js";
import type { ThresholdPolicy } from "../placement/policy.js";
import type { HostMetricName, Reason } from "../placement/reason.js";

/**
 * How long each ESXi host has been hot, without a break, on a rule that moving a pod can
 * relieve: CPU ready or a memory rule (usage, balloon, swap-in, memory state). CPU usage,
 * maintenance and connection state are not such rules: evicting pods does not end them, or
 * the scheduler already keeps new pods away. Pure: time comes in as `nowMs`.
 */
export const REBALANCE_METRICS: ReadonlySet<HostMetricName> = new Set(["cpu ready", "memory usage", "balloon", "swap-in rate", "memory state"]);

export interface HotSpell {
  readonly hostId: string;
  readonly hostName: string;
  /** When hvx first saw the host hot in this unbroken run, epoch ms (hvx's clock). */
  readonly sinceMs: number;
  /** The rule crossed now (the first of them, in assessment order), with its value and threshold. */
  readonly metric: HostMetricName;
  readonly value: number | string;
  readonly threshold: number | string;
}

/**
 * The spells after one look at the inventory: a host hot on a rebalance rule keeps its
 * spell's start (or starts one now); any other host has none. Unknown or stale metrics end
 * a spell (unknown is never a reason to act).
 */
export function nextHotSpells(prev: ReadonlyMap<string, HotSpell>, inventory: InventoryView, t: ThresholdPolicy, nowMs: number): Map<string, HotSpell> {
  const out = new Map<string, HotSpell>();
  for (const host of inventory.hosts.values()) {
    const a = assessHostAlone(host, t, nowMs);
    if (a.staleness?.code === "inventory_stale") continue;
    const fired = a.rejections.find(isRebalanceRule);
    if (!fired || fired.code !== "host_metric") continue;
    out.set(host.id, {
      hostId: host.id,
      hostName: host.name,
      sinceMs: prev.get(host.id)?.sinceMs ?? nowMs,
      metric: fired.metric,
      value: fired.value,
      threshold: fired.threshold,
    });
  }
  return out;
}

function isRebalanceRule(r: Reason): boolean {
  return r.code === "host_metric" && REBALANCE_METRICS.has(r.metric);
}
