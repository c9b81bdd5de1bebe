import type { InventoryView } from "../model/inventory.js";
import { assessHostAlone } from "../placement/assess-host.js";
import { CLEAR_POLLS_TO_COOL, loweredThresholds } from "../placement/heat-mark.js";
import type { ThresholdPolicy } from "../placement/policy.js";
import type { HostMetricName, Reason } from "../placement/reason.js";
import { RELIEVED_BY_EVICTION } from "../placement/rules/index.js";

/**
 * How long each ESXi host has been hot, without a break, on a rule that moving a pod can
 * relieve (`relievedByEviction` in placement/rules/: CPU ready and the memory rules). CPU
 * usage, maintenance and connection state are not such rules: evicting pods does not end
 * them, or the scheduler already keeps new pods away. Pure: time comes in as `nowMs`.
 */
export const REBALANCE_METRICS: ReadonlySet<HostMetricName> = RELIEVED_BY_EVICTION;

export interface HotSpell {
  readonly hostId: string;
  readonly hostName: string;
  /** When hvx first saw the host hot in this unbroken run, epoch ms (hvx's clock). */
  readonly sinceMs: number;
  /** The rule crossed now (the first of them, in assessment order), with its value and threshold. */
  readonly metric: HostMetricName;
  readonly value: number | string;
  readonly threshold: number | string;
  /** Polls in a row (distinct samples) with every rebalance rule clear at the lowered thresholds. */
  readonly clearPolls: number;
  readonly lastSampleMs: number | undefined;
}

/**
 * The spells after one look at the inventory: a host hot on a rebalance rule keeps its
 * spell's start (or starts one now). A spell ends with the same hysteresis as the
 * `hvx.io/host-heat` mark (placement/heat-mark.ts): only after `CLEAR_POLLS_TO_COOL` polls in
 * a row where every rebalance rule is clear at thresholds lowered by `hysteresisPercent`
 * (`nodeLabels.hysteresisPercent`), so one sample just under a threshold does not restart the
 * clock of a host that stays at it. Unknown or stale metrics end a spell at once (unknown is
 * never a reason to act).
 */
export function nextHotSpells(
  prev: ReadonlyMap<string, HotSpell>,
  inventory: InventoryView,
  t: ThresholdPolicy,
  nowMs: number,
  hysteresisPercent = 10,
): Map<string, HotSpell> {
  const out = new Map<string, HotSpell>();
  for (const host of inventory.hosts.values()) {
    const a = assessHostAlone(host, t, nowMs);
    if (a.staleness) continue;
    const sampleMs = host.metrics?.sampledAtMs;
    const before = prev.get(host.id);
    const fired = a.rejections.find(isRebalanceRule);
    if (fired && fired.code === "host_metric") {
      out.set(host.id, {
        hostId: host.id,
        hostName: host.name,
        sinceMs: before?.sinceMs ?? nowMs,
        metric: fired.metric,
        value: fired.value,
        threshold: fired.threshold,
        clearPolls: 0,
        lastSampleMs: sampleMs,
      });
      continue;
    }
    if (!before) continue;
    const clear = !assessHostAlone(host, loweredThresholds(t, hysteresisPercent), nowMs).rejections.some(isRebalanceRule);
    const clearPolls = !clear ? 0 : sampleMs !== before.lastSampleMs ? before.clearPolls + 1 : before.clearPolls;
    if (clearPolls >= CLEAR_POLLS_TO_COOL) continue;
    out.set(host.id, { ...before, clearPolls, lastSampleMs: sampleMs });
  }
  return out;
}

function isRebalanceRule(r: Reason): boolean {
  return r.code === "host_metric" && REBALANCE_METRICS.has(r.metric);
}
