import type { HostView } from "../model/inventory.js";
import type { HostBurstRoom } from "./host-burst-room.js";
import type { Reason } from "./reason.js";

/** The correlated-burst cap (`correlation.*` in the config; docs/prediction.md "Correlated bursts"). */
export interface CorrelationPolicy {
  readonly enabled: boolean;
  /** Share of the host's burst room the pod's correlated group may take (pod included) before it costs points, 0..1. */
  readonly softShare: number;
  /** Points taken off at a share of 1 (the group alone fills the room) and beyond; 0..10. */
  readonly maxPenalty: number;
  /** Share above which the host is rejected; undefined: never (the cap only costs points). */
  readonly hardShare?: number;
  /** Count the groups learnt to burst with the pod's own (correlated-groups.ts) into its group. */
  readonly learnGroups: boolean;
  /**
   * The replica spread of a bursting group evens its replicas in proportion to each host's burst room
   * (room-weighted-spread.ts) instead of by plain count, so it does not push back what the cap moves off.
   */
  readonly spreadByRoom: boolean;
}

export const DEFAULT_CORRELATION_POLICY: CorrelationPolicy = {
  enabled: true,
  softShare: 0.75,
  maxPenalty: 6,
  learnGroups: true,
  spreadByRoom: true,
};

export interface CorrelatedBurstCheck {
  /** The correlated group's expected CPU on the host with the incoming pod, MHz. */
  readonly groupMhz: number;
  readonly roomMhz: number;
  /** groupMhz / roomMhz (Infinity when the room is gone). */
  readonly share: number;
  /** Whole score points, 0..maxPenalty. */
  readonly penalty: number;
  readonly reason?: Reason;
}

/**
 * Judges how much of one correlated group (replicas that burst together) a host would carry with
 * the incoming pod, against the CPU its non-Kubernetes VMs leave (`HostBurstRoom.roomMhz`):
 *   share   = groupMilli / 1000 x MHz per core / roomMhz
 *   penalty = round(maxPenalty x clamp((share - softShare) / (1 - softShare), 0, 1))
 * so the points rise from 0 at `softShare` to `maxPenalty` when the group alone would fill the
 * room; above `hardShare` (when set) the host is rejected. Whole points, as the extender's
 * wire scores are whole.
 */
export function checkCorrelatedBurst(
  host: HostView,
  room: HostBurstRoom,
  owner: string,
  groupMilli: number,
  policy: CorrelationPolicy,
): CorrelatedBurstCheck {
  const groupMhz = (groupMilli / 1000) * host.cpuMhzPerCore;
  const roomMhz = room.roomMhz;
  const share = correlatedShare(host, room, groupMilli);
  const penalty = correlatedPoints(share, policy);
  if (policy.hardShare === undefined || share <= policy.hardShare) return { groupMhz, roomMhz, share, penalty };
  return {
    groupMhz,
    roomMhz,
    share,
    penalty,
    reason: {
      code: "correlated_burst",
      host: { id: host.id, name: host.name },
      owner,
      groupMhz: Math.round(groupMhz),
      roomMhz: Math.round(roomMhz),
      nonKubernetesMhz: Math.round(room.nonKubernetesMhz),
      share: Math.round(share * 100) / 100,
      max: policy.hardShare,
    },
  };
}

/** `checkCorrelatedBurst`'s share alone: the group's CPU over the host's burst room (Infinity when the room is gone). */
export function correlatedShare(host: HostView, room: HostBurstRoom, groupMilli: number): number {
  const groupMhz = (groupMilli / 1000) * host.cpuMhzPerCore;
  return room.roomMhz > 0 ? groupMhz / room.roomMhz : groupMhz > 0 ? Number.POSITIVE_INFINITY : 0;
}

/** `checkCorrelatedBurst`'s points alone, for a share. */
export function correlatedPoints(share: number, policy: CorrelationPolicy): number {
  const soft = Math.min(policy.softShare, 0.99);
  return Math.round(policy.maxPenalty * Math.min(1, Math.max(0, (share - soft) / (1 - soft))));
}
