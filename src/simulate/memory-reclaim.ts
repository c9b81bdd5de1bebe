/**
 * Memory reclamation on one ESXi host, one step. Per VM v: demand d_v (MiB the guest
 * wants resident), configured memory cfg_v, reservation res_v, and the state carried
 * between steps: balloon b_v and host-swapped s_v. The host holds sum(d_v - b_v - s_v).
 *
 *   minFree  = 899 MiB x min(1, M / 28 GiB) + 1 % x max(0, M - 28 GiB)   (ESXi's minFree)
 *   free     = M - sum(d_v - b_v - s_v)
 *   state    = high (free >= 400 % minFree) | clear (>= 100 %) | soft (>= 64 %)
 *              | hard (>= 32 %) | low (>= 16 %, and anything below)     (each state's threshold
 *              is its lower edge; low also blocks allocations, which the model does not do)
 *   reclaim, by the state before reclamation:
 *     soft:       the balloon inflates: each VM by at most `balloonRateMiB` per step, up to
 *                 65 % of cfg_v (Mem.CtlMaxPercent) and never into reserved or untouched
 *                 memory, split in proportion to each VM's room, toward free = minFree;
 *     hard, low:  ballooning stops; the host swaps (compression is not modelled and counts
 *                 as swap) enough to get back to soft (free = 64 % minFree), in proportion
 *                 to room.
 *   release  = free - minFree when positive: swap-in first, then deflate the balloon.
 *   swap-in  = (MiB swapped back in) + touch x sum(s_v)   per step   (a guest keeps
 *              touching a share of its swapped pages, which come back in)
 */
export interface ReclaimParams {
  readonly balloonMaxShare: number;
  readonly balloonRateMiB: number;
  readonly swapTouchShare: number;
}

/** Mem.CtlMaxPercent = 65 (share of configured memory the balloon may take). */
export const DEFAULT_RECLAIM: ReclaimParams = { balloonMaxShare: 0.65, balloonRateMiB: 1024, swapTouchShare: 0.02 };

/** vSphere 6+ host memory states, in order of growing pressure. */
export const MEM_STATES = ["high", "clear", "soft", "hard", "low"] as const;

export interface ReclaimResult {
  /** MiB read back from host swap during the step. */
  readonly swapInMiB: number;
  /** Index into MEM_STATES. */
  readonly state: number;
  /** Physical memory the VMs hold after reclamation, MiB. */
  readonly consumedMiB: number;
}

/** ESXi minFree for a host with `memMiB` of memory: 899 MiB for the first 28 GiB, 1 % of the rest. */
export function minFreeMiB(memMiB: number): number {
  const base = 28 * 1024;
  return 899 * Math.min(1, memMiB / base) + 0.01 * Math.max(0, memMiB - base);
}

/** Lower edge of each state as a share of minFree (high, clear, soft, hard); below the last: low. */
export const MEM_STATE_FLOORS = [4, 1, 0.64, 0.32] as const;
export const MEM_STATE_SOFT = 2;
export const MEM_STATE_HARD = 3;

export function memStateIndex(freeMiB: number, minFree: number): number {
  for (let i = 0; i < MEM_STATE_FLOORS.length; i++) if (freeMiB >= MEM_STATE_FLOORS[i]! * minFree) return i;
  return MEM_STATE_FLOORS.length;
}

/**
 * Reclaims memory on one host, updating `balloon` and `swapped` (indexed by VM) for the
 * VMs listed in `vms`. Arrays are indexed by global VM index.
 */
export function reclaimHostMemory(
  hostMemMiB: number,
  vms: readonly number[],
  demand: Float64Array,
  cfg: Float64Array,
  res: Float64Array,
  balloon: Float64Array,
  swapped: Float64Array,
  p: ReclaimParams,
): ReclaimResult {
  let swapInMiB = 0;
  let held = 0;
  let swappedTotal = 0;
  for (const v of vms) {
    // a VM that now wants less gives back swap first, then balloon
    const reclaimable = Math.max(0, demand[v]! - res[v]!);
    if (swapped[v]! + balloon[v]! > reclaimable) {
      const over = swapped[v]! + balloon[v]! - reclaimable;
      const fromSwap = Math.min(swapped[v]!, over);
      swapped[v] = swapped[v]! - fromSwap;
      balloon[v] = Math.max(0, balloon[v]! - (over - fromSwap));
    }
    held += demand[v]! - balloon[v]! - swapped[v]!;
    swappedTotal += swapped[v]!;
  }
  const minFree = minFreeMiB(hostMemMiB);
  const softFloor = MEM_STATE_FLOORS[MEM_STATE_SOFT] * minFree;
  let free = hostMemMiB - held;
  if (free < minFree && free >= softFloor) {
    // soft: balloon toward minFree
    free += spread(vms, minFree - free, (v) => Math.min(p.balloonRateMiB, balloonRoom(v, demand, cfg, res, balloon, swapped, p)), balloon);
  } else if (free < softFloor) {
    // hard or low: the balloon driver stops, the host swaps back to soft
    const swappedOut = spread(vms, softFloor - free, (v) => Math.max(0, demand[v]! - res[v]! - balloon[v]! - swapped[v]!), swapped);
    free += swappedOut;
    swappedTotal += swappedOut;
  } else if (free > minFree) {
    let release = free - minFree;
    const swapBack = Math.min(release, swappedTotal);
    if (swapBack > 0) {
      spread(vms, -swapBack, (v) => swapped[v]!, swapped);
      swapInMiB += swapBack;
      swappedTotal -= swapBack;
      free -= swapBack;
      release -= swapBack;
    }
    if (release > 0) free += spread(vms, -release, (v) => balloon[v]!, balloon);
  }
  swapInMiB += p.swapTouchShare * swappedTotal;
  return { swapInMiB, state: memStateIndex(free, minFree), consumedMiB: hostMemMiB - free };
}

/** Room for the balloon in VM v: up to balloonMaxShare x configured, never into reserved or untouched memory. */
function balloonRoom(
  v: number,
  demand: Float64Array,
  cfg: Float64Array,
  res: Float64Array,
  balloon: Float64Array,
  swapped: Float64Array,
  p: ReclaimParams,
): number {
  const cap = Math.min(p.balloonMaxShare * cfg[v]!, cfg[v]! - res[v]!, demand[v]! - res[v]! - swapped[v]!);
  return Math.max(0, cap - balloon[v]!);
}

/**
 * Moves `amount` (negative: takes back) into `target`, split over `vms` in proportion to
 * room(v); never more than the total room. Returns the signed amount moved.
 */
function spread(vms: readonly number[], amount: number, room: (v: number) => number, target: Float64Array): number {
  let total = 0;
  for (const v of vms) total += room(v);
  if (total <= 0) return 0;
  const moved = Math.sign(amount) * Math.min(Math.abs(amount), total);
  const fraction = moved / total;
  for (const v of vms) target[v] = Math.max(0, target[v]! + fraction * room(v));
  return moved;
}
