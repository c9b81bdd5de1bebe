/**
 * kube-scheduler's PodTopologySpread scoring with the system default constraints
 * (pkg/scheduler/framework/plugins/podtopologyspread: plugin.go, scoring.go), as pure
 * functions. The default profile enables it with weight 2 (apis/config/v1/default_plugins.go).
 *
 * System defaults: `kubernetes.io/hostname` maxSkew 3 and `topology.kubernetes.io/zone`
 * maxSkew 5, both ScheduleAnyway, for pods that a Service, ReplicationController, ReplicaSet
 * or StatefulSet selects. The twin's nodes carry no zone label, so only the hostname
 * constraint scores (a node without the label adds nothing for that constraint). Per node:
 *
 *   raw        = round(matching x ln(scoredNodes + 2) + (maxSkew - 1))
 *   normalised = 100 x (max + min - raw) / max        (int64 division over the scored nodes)
 *
 * where matching counts the pods of the same owner already on the node and scoredNodes is
 * the number of nodes being scored (those that passed filtering). Fewer matching pods,
 * higher score.
 */
export const POD_TOPOLOGY_SPREAD_WEIGHT = 2;
export const HOSTNAME_MAX_SKEW = 3;
const MAX_NODE_SCORE = 100;

/** Score() for one node: the hostname constraint's credit. */
export function spreadRawScore(matching: number, scoredNodes: number, maxSkew: number = HOSTNAME_MAX_SKEW): number {
  return Math.round(matching * Math.log(scoredNodes + 2) + (maxSkew - 1));
}

/** NormalizeScore(): raw scores of the scored nodes to 0..100, in place. */
export function normalizeSpreadScores(scores: Float64Array | number[], count: number): void {
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < count; i++) {
    const s = scores[i]!;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  for (let i = 0; i < count; i++) scores[i] = max === 0 ? MAX_NODE_SCORE : Math.floor((MAX_NODE_SCORE * (max + min - scores[i]!)) / max);
}
