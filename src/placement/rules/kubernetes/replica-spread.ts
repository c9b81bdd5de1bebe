import { burstsTogether } from "../../bursts-together.js";
import { burstRoomOf } from "../../host-burst-room.js";
import { checkSpread, replicasIn, spreadPoints, type SpreadRule } from "../../host-spread.js";
import type { HostEntry, PlacementIndex } from "../../placement-index.js";
import type { PlacementPolicy } from "../../policy.js";
import { NO_REASONS } from "../../reason.js";
import { replicaDensity, replicasAboveEven, roomWeight } from "../../room-weighted-spread.js";
import { ExplainedAdjustment, type HostJudgement, type KubernetesRule, type PodFacts } from "./kubernetes-rule.js";

const NAME = "replica-spread";

/**
 * The pod's replicas per host against the fewest on any candidate's host (host-spread.ts), or, for a
 * group that bursts together under the correlated-burst cap's `spreadByRoom`, against the even share
 * of each host's burst room (room-weighted-spread.ts): reads the pod's owner and spread annotations,
 * and the candidates' fewest-replicas count or least replica density.
 */
export const replicaSpread: KubernetesRule = {
  name: NAME,
  // A required spread rejects by the fewest count: then it is part of the pod key.
  podKey: ({ spread, leastReplicas }) =>
    spread ? `${spread.owner}/${spread.required}/${spread.maxSkew}${spread.required ? `/${leastReplicas(spread)}` : ""}` : "",
  relativeKey: (facts) => {
    const rule = facts.spread;
    if (!rule || rule.required) return "";
    const density = leastDensity(facts, rule);
    return density === undefined ? `${facts.leastReplicas(rule)}` : `d${density}`;
  },
  onHost: (entry, { facts, index, scores }) => {
    const rule = facts.spread;
    // A soft spread only adjusts scores.
    if (!rule || (!scores && !rule.required)) return undefined;
    const onHost = replicasIn(entry.totals, entry.podsOnHost, rule.owner, facts.pod.uid);
    const density = rule.required ? undefined : leastDensity(facts, rule);
    if (density !== undefined) return roomWeighted(entry, index, onHost, density, rule);
    const least = facts.leastReplicas(rule);
    const check = checkSpread(entry.host, onHost, least, rule);
    return {
      reasons: check.reason ? [check.reason] : NO_REASONS,
      adjustment: new ExplainedAdjustment(NAME, check.penalty, () => `${onHost} replicas here, fewest ${least}`),
    };
  },
};

/** Whether the policy weighs a bursting group's spread by room: the cap and `spreadByRoom` on. */
function byRoom(policy: PlacementPolicy): boolean {
  const cap = policy.correlation;
  return cap !== undefined && cap.enabled && cap.spreadByRoom;
}

/**
 * The least replica density of the pod's group on any candidate's host (`replicaDensity`); undefined
 * when not weighed by room (a group that does not burst together, the policy's choice, no candidate host known).
 */
function leastDensity(facts: PodFacts, rule: SpreadRule): number | undefined {
  if (!burstsTogether(rule.owner)) return undefined;
  return facts.leastOnCandidates(
    NAME,
    (entry, index, policy) =>
      byRoom(policy)
        ? replicaDensity(replicasIn(entry.totals, entry.podsOnHost, rule.owner, facts.pod.uid), weightOf(index, entry))
        : undefined,
    1,
  );
}

function weightOf(index: PlacementIndex, entry: HostEntry): number {
  return roomWeight(burstRoomOf(index, entry));
}

/** The soft spread against the host's even share of the group by room; whole points, as the wire's scores are whole. */
function roomWeighted(entry: HostEntry, index: PlacementIndex, onHost: number, density: number, rule: SpreadRule): HostJudgement {
  const weight = weightOf(index, entry);
  const even = density * weight - 1;
  const points = Math.round(spreadPoints(replicasAboveEven(onHost, weight, density), rule.weights));
  const explain = () => `${onHost} replicas here, even ${even.toFixed(1)} by room (${weight.toFixed(2)} of the host left by other VMs)`;
  return { reasons: NO_REASONS, adjustment: new ExplainedAdjustment(NAME, points, explain) };
}
