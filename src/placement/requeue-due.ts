import type { InventoryView } from "../model/inventory.js";
import { assessHostAlone } from "./assess-host.js";
import type { NodeDecision } from "./decide-node.js";
import type { ThresholdPolicy } from "./policy.js";

/** A pending pod hvx turned away for host heat, remembered until a host of its cools. */
export interface HeldPod {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  /**
   * ESXi host ids whose heat rejected the pod's candidate nodes; none for a pod taken over after
   * hvx started (its PodScheduled message names hvx's host heat, the hosts are not known): due at once.
   */
  readonly hostIds: readonly string[];
  /** When hvx last rejected it, epoch ms. */
  readonly atMs: number;
}

/**
 * The hosts whose heat (a `host_metric` threshold) rejected a pod that hvx left with no node at
 * all; empty when any node passed (kube-scheduler places the pod) or no host heat was involved.
 */
export function heatRejectingHosts(outcome: { readonly passed: readonly string[]; readonly decisions: readonly NodeDecision[] }): string[] {
  if (outcome.passed.length > 0) return [];
  const ids = new Set<string>();
  for (const d of outcome.decisions) {
    if (d.verdict !== "reject" || !d.unresolvable) continue;
    for (const r of d.reasons) if (r.code === "host_metric") ids.add(r.host.id);
  }
  return [...ids];
}

/**
 * The held pods whose rejection no longer holds: at least one of their hosts is not hot any more
 * by this inventory (no `host_metric` threshold crossed, the same thresholds as the filter; a host
 * gone from the inventory or with stale data no longer rejects either). Pure.
 */
export function requeueDue(held: Iterable<HeldPod>, inventory: InventoryView, thresholds: ThresholdPolicy, nowMs: number): HeldPod[] {
  const hot = new Map<string, boolean>();
  const stillHot = (id: string): boolean => {
    let known = hot.get(id);
    if (known === undefined) {
      const host = inventory.hosts.get(id);
      known = host !== undefined && assessHostAlone(host, thresholds, nowMs).rejections.some((r) => r.code === "host_metric");
      hot.set(id, known);
    }
    return known;
  };
  const due: HeldPod[] = [];
  for (const p of held) if (p.hostIds.length === 0 || p.hostIds.some((id) => !stillHot(id))) due.push(p);
  return due;
}
