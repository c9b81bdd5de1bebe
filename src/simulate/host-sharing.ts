/**
 * CPU sharing on one ESXi host, one 20 s step. Two parts (docs/simulation.md section 4):
 *
 * 1. Allocation by entitlement (ESXi's proportional-share scheduler; vSphere Resource
 *    Management: shares, reservations, limits). Each VM v asks for cap_v = min(demand_v,
 *    limit_v). If the host can serve every cap, each VM gets it. Otherwise the capacity C
 *    is shared max-min fair by shares, with reservations as floors:
 *
 *      a_v = clamp(lambda x shares_v, floor_v, cap_v),   floor_v = min(cap_v, reservation_v),
 *      lambda chosen so that sum(a_v) = C.
 *
 *    A VM below its fair share is served in full; what it leaves is split among the others
 *    by shares. Demand above a limit is ready time too (esxtop's %RDY includes %MLMTD).
 *
 * 2. Run-queue waits before saturation (statistical multiplexing of vCPUs on cores). Each of
 *    the host's N vCPUs is taken to be runnable, independently, with probability p_v =
 *    cap_v / (vCPUs_v x MHz): the number K of runnable vCPUs has mean mu = sum(cap_v) / MHz
 *    and variance s^2 = sum(vCPUs_v p_v (1 - p_v)). With c cores, E[(K - c)+] vCPUs wait on
 *    average (normal approximation of the expected overflow):
 *
 *      overflow = s phi(z) + (mu - c)(1 - Phi(z)),   z = (c - mu) / s;   0 when N <= c
 *
 *    The part of it above the mean excess max(0, mu - c), already counted by the allocation,
 *    is the queueing wait; it is shared among the VMs in proportion to the CPU they receive.
 *
 *   ready_ms_v = ((demand_v - a_v) / MHz + queue x a_v / sum(a)) x interval_ms   (cpu.ready.summation)
 */

/** Inputs of one host's step; arrays are indexed by global VM index and read for `vms` only. */
export interface HostCpuInputs {
  readonly capacityMhz: number;
  readonly mhzPerCore: number;
  readonly cores: number;
  readonly vms: readonly number[];
  readonly vcpus: Int32Array;
  readonly demandMhz: Float64Array;
  readonly shares: Float64Array;
  readonly reservationMhz: Float64Array;
  readonly limitMhz: Float64Array;
}

/**
 * Scratch space for `shareHostCpu`, sized for the largest host; reused every step so the
 * hot loop allocates nothing.
 */
export class CpuShareScratch {
  capMhz: Float64Array;
  floorMhz: Float64Array;
  breakpoints: Float64Array;

  constructor(size = 16) {
    this.capMhz = new Float64Array(size);
    this.floorMhz = new Float64Array(size);
    this.breakpoints = new Float64Array(2 * size);
  }

  ensure(n: number): void {
    if (this.capMhz.length >= n) return;
    this.capMhz = new Float64Array(2 * n);
    this.floorMhz = new Float64Array(2 * n);
    this.breakpoints = new Float64Array(4 * n);
  }
}

/**
 * Shares the host's CPU for one step: writes each VM's delivered MHz into `deliveredMhz` and
 * its cpu.ready.summation (ms over all its vCPUs) into `readyMs`. Returns the delivered total.
 */
export function shareHostCpu(
  h: HostCpuInputs,
  intervalMs: number,
  scratch: CpuShareScratch,
  deliveredMhz: Float64Array,
  readyMs: Float64Array,
): number {
  const n = h.vms.length;
  scratch.ensure(n);
  const cap = scratch.capMhz;
  const floor = scratch.floorMhz;
  let capSum = 0;
  let floorSum = 0;
  for (let i = 0; i < n; i++) {
    const v = h.vms[i]!;
    cap[i] = Math.max(0, Math.min(h.demandMhz[v]!, h.limitMhz[v]!));
    floor[i] = Math.min(cap[i]!, h.reservationMhz[v]!);
    capSum += cap[i]!;
    floorSum += floor[i]!;
  }
  if (capSum <= h.capacityMhz) {
    for (let i = 0; i < n; i++) deliveredMhz[h.vms[i]!] = cap[i]!;
  } else if (floorSum >= h.capacityMhz) {
    // reservations beyond capacity (admission control would have refused them): scale them down
    const f = floorSum > 0 ? h.capacityMhz / floorSum : 0;
    for (let i = 0; i < n; i++) deliveredMhz[h.vms[i]!] = floor[i]! * f;
  } else {
    const lambda = waterLevel(h, cap, floor, scratch.breakpoints);
    for (let i = 0; i < n; i++) {
      const v = h.vms[i]!;
      deliveredMhz[v] = clamp(lambda * h.shares[v]!, floor[i]!, cap[i]!);
    }
  }
  let delivered = 0;
  for (let i = 0; i < n; i++) delivered += deliveredMhz[h.vms[i]!]!;

  const queueCores = queueingOverflowCores(h, cap, capSum);
  for (let i = 0; i < n; i++) {
    const v = h.vms[i]!;
    const a = deliveredMhz[v]!;
    const waitCores = (h.demandMhz[v]! - a) / h.mhzPerCore + (delivered > 0 ? (queueCores * a) / delivered : 0);
    // a vCPU is either running or waiting: ready never exceeds the time not spent running
    const maxWait = h.vcpus[v]! - a / h.mhzPerCore;
    readyMs[v] = h.mhzPerCore > 0 ? Math.max(0, Math.min(waitCores, maxWait)) * intervalMs : 0;
  }
  return delivered;
}

/** The water level lambda (MHz per share) at which sum(clamp(lambda x s_v, floor_v, cap_v)) = C. */
function waterLevel(h: HostCpuInputs, cap: Float64Array, floor: Float64Array, bp: Float64Array): number {
  const n = h.vms.length;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const s = h.shares[h.vms[i]!]!;
    if (s <= 0) continue;
    bp[m++] = floor[i]! / s;
    bp[m++] = cap[i]! / s;
  }
  const points = bp.subarray(0, m).sort();
  const total = (lambda: number): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const s = h.shares[h.vms[i]!]!;
      sum += s > 0 ? clamp(lambda * s, floor[i]!, cap[i]!) : floor[i]!;
    }
    return sum;
  };
  // total() is piecewise linear and non-decreasing in lambda; find the segment that reaches C
  let lo = 0;
  let loSum = total(0);
  for (let k = 0; k < points.length; k++) {
    const hi = points[k]!;
    if (hi <= lo) continue;
    const hiSum = total(hi);
    if (hiSum >= h.capacityMhz) return hiSum > loSum ? lo + ((h.capacityMhz - loSum) / (hiSum - loSum)) * (hi - lo) : hi;
    lo = hi;
    loSum = hiSum;
  }
  return lo;
}

/**
 * Expected vCPUs waiting for a core beyond the mean excess: E[(K - c)+] - max(0, mu - c), in
 * cores, with K the number of runnable vCPUs (normal approximation, capped at N - c).
 */
function queueingOverflowCores(h: HostCpuInputs, cap: Float64Array, capSum: number): number {
  let vcpuTotal = 0;
  let variance = 0;
  for (let i = 0; i < h.vms.length; i++) {
    const v = h.vms[i]!;
    const k = h.vcpus[v]!;
    vcpuTotal += k;
    const p = k > 0 && h.mhzPerCore > 0 ? Math.min(1, cap[i]! / (k * h.mhzPerCore)) : 0;
    variance += k * p * (1 - p);
  }
  return expectedQueueCores(vcpuTotal, h.cores, h.mhzPerCore > 0 ? capSum / h.mhzPerCore : 0, variance);
}

/**
 * The queueing part of the overflow for N vCPUs on c cores, mean demand mu cores and
 * variance s^2 (exported for the curve in docs/simulation.md and its test).
 */
export function expectedQueueCores(vcpus: number, cores: number, meanCores: number, variance: number): number {
  if (vcpus <= cores) return 0;
  const excess = Math.max(0, meanCores - cores);
  if (variance <= 0) return 0;
  const sd = Math.sqrt(variance);
  const z = (cores - meanCores) / sd;
  const overflow = Math.min(vcpus - cores, sd * normalPdf(z) + (meanCores - cores) * (1 - normalCdf(z)));
  return Math.max(0, overflow - excess);
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/** Standard normal CDF through erf (Abramowitz and Stegun 7.1.26, error < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}
