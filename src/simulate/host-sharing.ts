import { maxMinShare } from "./max-min-share.js";

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
  /** NUMA nodes the host's cores are split into (read by the `queueing` physics only). */
  readonly numaNodes: number;
  readonly vms: readonly number[];
  readonly vcpus: Int32Array;
  readonly demandMhz: Float64Array;
  readonly shares: Float64Array;
  readonly reservationMhz: Float64Array;
  readonly limitMhz: Float64Array;
}

/** One CPU model: writes delivered MHz and cpu.ready.summation (ms, all vCPUs) per VM; returns the delivered total. */
export type HostCpuSharer = (
  h: HostCpuInputs,
  intervalMs: number,
  scratch: CpuShareScratch,
  deliveredMhz: Float64Array,
  readyMs: Float64Array,
) => number;

/**
 * Scratch space for the sharers, sized for the largest host (or NUMA client list); reused
 * every step so the hot loop allocates nothing.
 */
export class CpuShareScratch {
  capMhz = new Float64Array(16);
  floorMhz = new Float64Array(16);
  shares = new Float64Array(16);
  allocMhz = new Float64Array(16);
  breakpoints = new Float64Array(32);

  /** NUMA clients (the `queueing` physics): VM (local index), vCPUs, share of the VM, offered MHz, pool, order. */
  clientVm = new Int32Array(16);
  clientVcpus = new Float64Array(16);
  clientFraction = new Float64Array(16);
  clientOfferedMhz = new Float64Array(16);
  clientPool = new Int32Array(16);
  clientOrder = new Int32Array(16);
  clientIndex = new Int32Array(16);
  /** Per VM of the host (local index): delivered MHz and ready cores summed over its clients. */
  vmDeliveredMhz = new Float64Array(16);
  vmReadyCores = new Float64Array(16);
  /** Per NUMA node: cores, offered MHz, vCPUs. */
  poolCores = new Float64Array(4);
  poolOfferedMhz = new Float64Array(4);
  poolVcpus = new Float64Array(4);

  ensureClients(clients: number, pools: number): void {
    this.ensure(clients);
    if (this.clientVm.length < clients) {
      this.clientVm = new Int32Array(2 * clients);
      this.clientVcpus = new Float64Array(2 * clients);
      this.clientFraction = new Float64Array(2 * clients);
      this.clientOfferedMhz = new Float64Array(2 * clients);
      this.clientPool = new Int32Array(2 * clients);
      this.clientOrder = new Int32Array(2 * clients);
      this.clientIndex = new Int32Array(2 * clients);
      this.vmDeliveredMhz = new Float64Array(2 * clients);
      this.vmReadyCores = new Float64Array(2 * clients);
    }
    if (this.poolCores.length < pools) {
      this.poolCores = new Float64Array(pools);
      this.poolOfferedMhz = new Float64Array(pools);
      this.poolVcpus = new Float64Array(pools);
    }
  }

  ensure(n: number): void {
    if (this.capMhz.length >= n) return;
    this.capMhz = new Float64Array(2 * n);
    this.floorMhz = new Float64Array(2 * n);
    this.shares = new Float64Array(2 * n);
    this.allocMhz = new Float64Array(2 * n);
    this.breakpoints = new Float64Array(4 * n);
  }
}

/**
 * The `overflow` physics: shares the host's CPU for one step: writes each VM's delivered MHz
 * into `deliveredMhz` and its cpu.ready.summation (ms over all its vCPUs) into `readyMs`.
 * Returns the delivered total.
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
  let capSum = 0;
  for (let i = 0; i < n; i++) {
    const v = h.vms[i]!;
    cap[i] = Math.max(0, Math.min(h.demandMhz[v]!, h.limitMhz[v]!));
    scratch.floorMhz[i] = Math.min(cap[i]!, h.reservationMhz[v]!);
    scratch.shares[i] = h.shares[v]!;
    capSum += cap[i]!;
  }
  maxMinShare(n, cap, scratch.floorMhz, scratch.shares, h.capacityMhz, scratch.allocMhz, scratch.breakpoints);
  let delivered = 0;
  for (let i = 0; i < n; i++) {
    deliveredMhz[h.vms[i]!] = scratch.allocMhz[i]!;
    delivered += scratch.allocMhz[i]!;
  }

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
