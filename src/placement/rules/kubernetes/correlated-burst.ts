import type { PodView } from "../../../model/cluster.js";
import {
  checkCorrelatedBurst,
  correlatedPoints,
  correlatedShare,
  type CorrelatedBurstCheck,
  type CorrelationPolicy,
} from "../../correlated-burst-cap.js";
import { burstsTogether } from "../../bursts-together.js";
import { burstRoomOf, type HostBurstRoom } from "../../host-burst-room.js";
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
  onHost: (entry, { facts, policy, index, scores }) => {
    // Without a hard share the cap only costs points.
    if (!scores && policy.correlation?.hardShare === undefined) return undefined;
    const check = judgeCorrelatedBurst(entry, facts.pod, index, policy);
    if (!check) return undefined;
    const reasons = check.reason ? [check.reason] : NO_REASONS;
    if (!scores) return { reasons };
    const least = leastPoints(facts);
    const explain = () => {
      const groups = `${check.groups} group${check.groups === 1 ? "" : "s"}`;
      return `${groups} ${ghz(check.groupMhz)} of ${ghz(check.roomMhz)} GHz left = ${check.share.toFixed(2)}, ${check.penalty} points, fewest ${least}`;
    };
    return {
      reasons,
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

/** `judgeCorrelatedBurst(...).penalty`, without building the judgement: every request asks it of every candidate host. */
function pointsOn(entry: HostEntry, pod: PodView, index: PlacementIndex, policy: PlacementPolicy): number | undefined {
  const cap = policy.correlation;
  const owner = pod.ownerKey;
  if (!cap?.enabled || owner === undefined || !burstsTogether(owner)) return undefined;
  const room = burstRoomOf(index, entry);
  return room && correlatedPoints(correlatedShare(entry.host, room, groupMilli(entry, pod, owner, room, cap, index)), cap);
}

/**
 * The cap's judgement of one host for `pod`, with how many groups counted; undefined (no
 * opinion) when the cap is off, the pod has no replica group or the host's room is unknown.
 */
export function judgeCorrelatedBurst(
  entry: HostEntry,
  pod: PodView,
  index: PlacementIndex,
  policy: PlacementPolicy,
): (CorrelatedBurstCheck & { readonly groups: number }) | undefined {
  const cap = policy.correlation;
  const owner = pod.ownerKey;
  if (!cap?.enabled || owner === undefined || !burstsTogether(owner)) return undefined;
  const room = burstRoomOf(index, entry);
  if (!room) return undefined;
  const milli = groupMilli(entry, pod, owner, room, cap, index);
  return { ...checkCorrelatedBurst(entry.host, room, owner, milli, cap), groups: 1 + partnersOf(owner, cap, index).length };
}

/** The CPU limits of the pod's correlated group on the host, with the pod's own, millicores. */
function groupMilli(
  entry: HostEntry,
  pod: PodView,
  owner: string,
  room: HostBurstRoom,
  cap: CorrelationPolicy,
  index: PlacementIndex,
): number {
  let milli = (listed(entry.totals, pod) ? 0 : pod.limits.cpuMilli) + (room.burstByOwnerMilli.get(owner) ?? 0);
  for (const other of partnersOf(owner, cap, index)) milli += room.burstByOwnerMilli.get(other) ?? 0;
  return milli;
}

/** The groups learnt to burst with `owner`'s (none when learning is off). */
function partnersOf(owner: string, cap: CorrelationPolicy, index: PlacementIndex): readonly string[] {
  return cap.learnGroups ? (index.correlatedGroups().get(owner) ?? NO_PARTNERS) : NO_PARTNERS;
}

const NO_PARTNERS: readonly string[] = [];

function ghz(mhz: number): string {
  return (mhz / 1000).toFixed(1);
}
