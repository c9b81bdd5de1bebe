import type { ClusterView } from "../model/cluster.js";
import type { PodMeta } from "./exemption.js";

/** Lowest `spec.priority` of the running pods of a view, computed once per view (undefined: no running pod). */
const lowestByView = new WeakMap<ClusterView["podsByNode"], number | undefined>();

/**
 * Whether kube-scheduler may preempt for this pod: its `preemptionPolicy` is not `Never` and its
 * priority is above the lowest priority of the pods running in the cluster view (a pod without
 * `spec.priority` counts as 0, as kube-scheduler's `corev1helpers.PodPriority` does). Without a
 * cluster view hvx cannot tell: false (the valve keeps its usual behaviour).
 * Cluster-wide, not per node: preemption may still find no victim that helps; the pod then
 * waits for the next attempt as any pod that cannot be placed.
 */
export function mayPreempt(pod: Pick<PodMeta, "priority" | "preemptionPolicy">, view: ClusterView | undefined): boolean {
  if (pod.preemptionPolicy === "Never" || view === undefined) return false;
  const lowest = lowestRunningPriority(view);
  return lowest !== undefined && (pod.priority ?? 0) > lowest;
}

function lowestRunningPriority(view: ClusterView): number | undefined {
  if (view.lowestRunningPriority !== undefined) return view.lowestRunningPriority ?? undefined;
  if (lowestByView.has(view.podsByNode)) return lowestByView.get(view.podsByNode);
  let lowest: number | undefined;
  for (const pods of view.podsByNode.values()) {
    for (const p of pods) {
      if (p.terminal) continue;
      const priority = p.eviction?.priority ?? 0;
      lowest = lowest === undefined ? priority : Math.min(lowest, priority);
    }
  }
  lowestByView.set(view.podsByNode, lowest);
  return lowest;
}
