import type { PodView } from "../../../model/cluster.js";
import { checkCorrelatedBurst, type CorrelatedBurstCheck } from "../../correlated-burst-cap.js";
import { burstRoomOf } from "../../host-burst-room.js";
import type { HostEntry, PlacementIndex } from "../../placement-index.js";
import type { PlacementPolicy } from "../../policy.js";
import { listed } from "../../pod-totals.js";
import { correlatedGroupsOf } from "../../snapshot-correlated-groups.js";
import type { KubernetesRule } from "./kubernetes-rule.js";

/**
 * How much of the pod's correlated group (its replica group, which bursts together by
 * construction, and the groups learnt to burst with it, correlated-groups.ts) a host carries
 * against the CPU its non-Kubernetes VMs leave (correlated-burst-cap.ts): reads the pod's
 * replica group and expected CPU.
 */
export const correlatedBurst: KubernetesRule = {
  name: "correlated-burst",
  podKey: ({ pod }) => (pod.ownerKey === undefined ? "" : `${pod.ownerKey}/${pod.limits.cpuMilli}`),
};

/**
 * The cap's judgement of one host for `pod`; undefined (no opinion) when the cap is off, the pod
 * has no replica group or the host's room is unknown.
 */
export function judgeCorrelatedBurst(
  entry: HostEntry,
  pod: PodView,
  index: PlacementIndex,
  policy: PlacementPolicy,
): CorrelatedBurstCheck | undefined {
  const cap = policy.correlation;
  const owner = pod.ownerKey;
  if (!cap?.enabled || owner === undefined) return undefined;
  const room = burstRoomOf(index, entry);
  if (!room) return undefined;
  let groupMilli = (listed(entry.totals, pod) ? 0 : pod.limits.cpuMilli) + (room.burstByOwnerMilli.get(owner) ?? 0);
  const partners = cap.learnGroups ? correlatedGroupsOf(index).get(owner) : undefined;
  for (const other of partners ?? []) groupMilli += room.burstByOwnerMilli.get(other) ?? 0;
  return checkCorrelatedBurst(entry.host, room, owner, groupMilli, cap);
}
