import { checkSpread, replicasIn } from "../../host-spread.js";
import type { KubernetesRule } from "./kubernetes-rule.js";

/**
 * The pod's replicas per host against the fewest on any candidate's host (host-spread.ts):
 * reads the pod's owner and spread annotations, and the candidates' fewest-replicas count.
 */
export const replicaSpread: KubernetesRule = {
  name: "replica-spread",
  // A required spread rejects by the fewest count: then it is part of the pod key.
  podKey: ({ spread, leastReplicas }) =>
    spread ? `${spread.owner}/${spread.required}/${spread.maxSkew}${spread.required ? `/${leastReplicas(spread)}` : ""}` : "",
  relativeKey: ({ spread, leastReplicas }) => (spread && !spread.required ? `${leastReplicas(spread)}` : ""),
  onHost: (entry, { facts }) => {
    const rule = facts.spread;
    if (!rule) return undefined;
    const onHost = replicasIn(entry.totals, entry.podsOnHost, rule.owner, facts.pod.uid);
    const least = facts.leastReplicas(rule);
    const check = checkSpread(entry.host, onHost, least, rule);
    return {
      reasons: check.reason ? [check.reason] : [],
      adjustment: { rule: "replica-spread", points: check.penalty, detail: `${onHost} replicas here, fewest ${least}` },
    };
  },
};
