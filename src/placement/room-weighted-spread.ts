import type { HostBurstRoom } from "./host-burst-room.js";

/**
 * The least weight a host's room gives it in the spread: a host whose other VMs leave it no room
 * still counts as a tenth of a host, so its replicas stay countable and the spread never divides by 0.
 */
export const MIN_ROOM_WEIGHT = 0.1;

/**
 * A host's weight in a bursting group's replica spread: the share of its CPU its non-Kubernetes
 * VMs leave (`HostBurstRoom.roomMhz / capacityMhz`, the correlated-burst cap's room), at least
 * `MIN_ROOM_WEIGHT`. Unknown room is no opinion: weight 1, the plain count of a host without
 * other VMs, whatever its size (the spread evens counts, not capacity).
 */
export function roomWeight(room: HostBurstRoom | undefined): number {
  if (!room || !(room.capacityMhz > 0)) return 1;
  return Math.min(1, Math.max(MIN_ROOM_WEIGHT, room.roomMhz / room.capacityMhz));
}

/**
 * Replicas per unit of weight on a host once it takes the incoming pod: the candidate with the
 * least is where the next replica goes under proportional apportionment (D'Hondt: the next seat to
 * the largest weight / (seats + 1)).
 */
export function replicaDensity(onHost: number, weight: number): number {
  return (onHost + 1) / weight;
}

/**
 * Replicas on a host above its even share, in replicas (>= 0): the count that would give it the
 * leanest candidate's density after taking the pod is `leastDensity x weight - 1`. With every
 * weight 1 this is the plain spread's `onHost - fewest on any candidate`.
 */
export function replicasAboveEven(onHost: number, weight: number, leastDensity: number): number {
  return Math.max(0, onHost + 1 - leastDensity * weight);
}
