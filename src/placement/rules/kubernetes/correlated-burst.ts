import type { PodView } from "../../../model/cluster.js";
import { checkCorrelatedBurst, correlatedPoints, correlatedShare, type CorrelatedBurstCheck } from "../../correlated-burst-cap.js";
import { burstsTogether } from "../../bursts-together.js";
import { burstRoomOf } from "../../host-burst-room.js";
import type { HostEntry, PlacementIndex } from "../../placement-index.js";
import type { PlacementPolicy } from "../../policy.js";
import { listed } from "../../pod-totals.js";
import { NO_REASONS } from "../../reason.js";
import { ExplainedAdjustment, type KubernetesRule, type PodFacts } from "./kubernetes-rule.js";

const NAME = "correlated-burst";

/**
 * How much of the pod's correlated group (its replica group, which bursts together by
 * construction, and the groups learnt to burst with it, correlated-groups.ts) a host carries
 * against the CPU its non-Kubernetes VMs leave (correlated-burst-cap.ts): reads the pod's
 * replica group and CPU limit.
 */
export const correlatedBurst: KubernetesRule = {
  name: NAME,
  podKey: (facts) => (facts.pod.ownerKey === undefined ? "" : `${facts.pod.ownerKey}/${facts.pod.limits.cpuMilli}`),
  relativeKey: (facts) => (facts.pod.ownerKey === undefined ? "" : `${leastPoints(facts)}`),
  onHost: (entry, { facts, policy, index }) => {
    const check = judgeCorrelatedBurst(entry, facts.pod, index, policy);
    if (!check) return undefined;
    const least = leastPoints(facts);
    const explain = () => {
      const groups = `${check.groups} group${check.groups === 1 ? "" : "s"}`;
      return `${groups} ${ghz(check.groupMhz)} of ${ghz(check.roomMhz)} GHz left = ${check.share.toFixed(2)}, ${check.penalty} points, fewest ${least}`;
    };
    return {
      reasons: check.reason ? [check.reason] : NO_REASONS,
      adjustment: new ExplainedAdjustment(NAME, check.penalty - least, explain),
    };
  },
};

/**
 * The fewest points any candidate's host costs this pod: the cap ranks hosts against the best
 * candidate, as the replica spread does. A share every host has (a group too large for any one
 * host) then changes no ranking, and it does not flatten hvx's headroom score against the tier floor.
 */
function leastPoints(facts: PodFacts): number {
  return facts.leastOnCandidates(NAME, (entry, index, policy) => pointsOn(entry, facts.pod, index, policy), 0) ?? 0;
}

/**
 * The cap's judgement of one host for `pod`, with how many groups counted; undefined (no
 * opinion) when the cap is off, the pod has no replica group or the host's room is unknown.
 */
/** `judgeCorrelatedBurst(...).penalty`, without building the judgement: every request asks it of every candidate host. */
function pointsOn(entry: HostEntry, pod: PodView, index: PlacementIndex, policy: PlacementPolicy): number | undefined {
  const group = groupOn(entry, pod, index, policy);
  return group && correlatedPoints(correlatedShare(entry.host, group.room, group.milli), group.cap);
}

export function judgeCorrelatedBurst(
  entry: HostEntry,
  pod: PodView,
  index: PlacementIndex,
  policy: PlacementPolicy,
): (CorrelatedBurstCheck & { readonly groups: number }) | undefined {
  const group = groupOn(entry, pod, index, policy);
  if (!group) return undefined;
  return { ...checkCorrelatedBurst(entry.host, group.room, group.owner, group.milli, group.cap), groups: group.groups };
}

/** The pod's correlated group on the host: its CPU limits with the pod's, the host's room, how many groups counted. */
function groupOn(entry: HostEntry, pod: PodView, index: PlacementIndex, policy: PlacementPolicy) {
  const cap = policy.correlation;
  const owner = pod.ownerKey;
  if (!cap?.enabled || owner === undefined || !burstsTogether(owner)) return undefined;
  const room = burstRoomOf(index, entry);
  if (!room) return undefined;
  let milli = (listed(entry.totals, pod) ? 0 : pod.limits.cpuMilli) + (room.burstByOwnerMilli.get(owner) ?? 0);
  const partners = cap.learnGroups ? (index.correlatedGroups().get(owner) ?? []) : [];
  for (const other of partners) milli += room.burstByOwnerMilli.get(other) ?? 0;
  return { cap, owner, room, milli, groups: 1 + partners.length };
}

function ghz(mhz: number): string {
  return (mhz / 1000).toFixed(1);
}
