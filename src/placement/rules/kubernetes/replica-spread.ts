import type { KubernetesRule } from "./kubernetes-rule.js";

/**
 * The pod's replicas per host against the fewest on any candidate's host (host-spread.ts):
 * reads the pod's owner and spread annotations, and the candidates' fewest-replicas count.
 */
export const replicaSpread: KubernetesRule = {
  name: "replica-spread",
  podKey: ({ spread, leastReplicas }) => (spread ? `${spread.owner}/${spread.required}/${spread.maxSkew}/${leastReplicas(spread)}` : ""),
};
