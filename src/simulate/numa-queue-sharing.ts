import { finiteSourceQueue } from "./finite-source-queue.js";
import type { CpuShareScratch, HostCpuInputs } from "./host-sharing.js";
import { maxMinShare } from "./max-min-share.js";

/**
 * The `queueing` physics (docs/simulation.md section 4b): CPU ready from a finite-source
 * queue per NUMA node, one 20 s step of one host.
 *
 * 1. NUMA clients. The host's cores are split evenly into `numaNodes` NUMA nodes. A VM with
 *    at most a node's cores is one NUMA client; a wider VM is split into ceil(vCPUs / node
 *    cores) clients of near-equal vCPUs on different nodes (ESXi's wide VMs). Each client
 *    offers its share of the VM's demand (capped at its limit).
 * 2. Home nodes. ESXi's NUMA scheduler rebalances home nodes every 2 s ("The CPU Scheduler in
 *    VMware vSphere 5.1", NUMA section), more often than a step: clients are placed each step,
 *    largest offered load first, on the node with the least offered load per core (ties: fewer
 *    vCPUs per core, then the lowest node), never two clients of one VM on one node.
 * 3. Per node j with c_j cores and N_j vCPUs offering O_j cores in all (p_j = O_j / N_j each),
 *    the M/M/c//N queue (finite-source-queue.ts) gives the busy cores B_j <= min(O_j, c_j) and
 *    the waiting vCPUs W_j.
 * 4. The busy cores are shared by entitlement: max-min by shares, reservations as floors,
 *    capacity B_j x MHz (max-min-share.ts). A client's shortfall cap_i - a_i is ready time;
 *    what the queue holds beyond the shortfalls, R_j = max(0, W_j - sum(cap_i - a_i) / MHz),
 *    is shared in proportion to the CPU each client received, as in the `overflow` physics:
 *
 *      ready_cores_i = (demand_i - a_i) / MHz + R_j x a_i / sum_j(a)
 *
 *    Per VM, summed over its clients and capped at its vCPUs' time not spent running.
 */
export function shareHostCpuNuma(
  h: HostCpuInputs,
  intervalMs: number,
  scratch: CpuShareScratch,
  deliveredMhz: Float64Array,
  readyMs: Float64Array,
): number {
  const n = h.vms.length;
  const mhz = h.mhzPerCore;
  const pools = Math.max(1, Math.min(h.numaNodes, h.cores));
  scratch.ensureClients(n * pools, pools);
  const s = scratch;
  const widestPoolCores = Math.ceil(h.cores / pools);
  for (let j = 0; j < pools; j++) {
    s.poolCores[j] = Math.floor(h.cores / pools) + (j < h.cores % pools ? 1 : 0);
    s.poolOfferedMhz[j] = 0;
    s.poolVcpus[j] = 0;
  }
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = h.vms[i]!;
    const vcpus = h.vcpus[v]!;
    const capV = Math.max(0, Math.min(h.demandMhz[v]!, h.limitMhz[v]!));
    const k = Math.min(pools, Math.max(1, Math.ceil(vcpus / widestPoolCores)));
    for (let j = 0; j < k; j++) {
      const cv = Math.floor(vcpus / k) + (j < vcpus % k ? 1 : 0);
      if (cv <= 0) continue;
      s.clientVm[m] = i;
      s.clientVcpus[m] = cv;
      s.clientFraction[m] = cv / vcpus;
      s.clientOfferedMhz[m] = (cv / vcpus) * capV;
      s.clientOrder[m] = m;
      s.clientPool[m] = -1;
      m++;
    }
    s.vmDeliveredMhz[i] = 0;
    s.vmReadyCores[i] = 0;
  }
  const order = s.clientOrder.subarray(0, m).sort((a, b) => s.clientOfferedMhz[b]! - s.clientOfferedMhz[a]! || a - b);
  for (const c of order) {
    let best = -1;
    for (let j = 0; j < pools; j++) {
      if (sharesPoolWithSibling(s, c, j, m)) continue;
      if (best < 0 || lessLoaded(s, j, best)) best = j;
    }
    s.clientPool[c] = best;
    s.poolOfferedMhz[best] = s.poolOfferedMhz[best]! + s.clientOfferedMhz[c]!;
    s.poolVcpus[best] = s.poolVcpus[best]! + s.clientVcpus[c]!;
  }

  let delivered = 0;
  for (let j = 0; j < pools; j++) {
    let count = 0;
    let capSum = 0;
    for (let c = 0; c < m; c++) {
      if (s.clientPool[c] !== j) continue;
      const v = h.vms[s.clientVm[c]!]!;
      const f = s.clientFraction[c]!;
      s.clientIndex[count] = c;
      s.capMhz[count] = s.clientOfferedMhz[c]!;
      s.floorMhz[count] = f * Math.min(Math.max(0, Math.min(h.demandMhz[v]!, h.limitMhz[v]!)), h.reservationMhz[v]!);
      s.shares[count] = f * h.shares[v]!;
      capSum += s.capMhz[count]!;
      count++;
    }
    if (count === 0) continue;
    const vcpus = s.poolVcpus[j]!;
    const offeredCores = mhz > 0 ? capSum / mhz : 0;
    const q = finiteSourceQueue(vcpus, s.poolCores[j]!, vcpus > 0 ? offeredCores / vcpus : 0);
    // with no queue the busy cores are the offered load itself; keep that exact
    const capacityMhz = q.waiting > 0 ? Math.min(capSum, q.busy * mhz) : capSum;
    maxMinShare(count, s.capMhz, s.floorMhz, s.shares, capacityMhz, s.allocMhz, s.breakpoints);
    let allocSum = 0;
    let shortfallCores = 0;
    for (let x = 0; x < count; x++) {
      allocSum += s.allocMhz[x]!;
      shortfallCores += mhz > 0 ? (s.capMhz[x]! - s.allocMhz[x]!) / mhz : 0;
    }
    const residual = Math.max(0, q.waiting - shortfallCores);
    for (let x = 0; x < count; x++) {
      const c = s.clientIndex[x]!;
      const i = s.clientVm[c]!;
      const v = h.vms[i]!;
      const a = s.allocMhz[x]!;
      s.vmDeliveredMhz[i] = s.vmDeliveredMhz[i]! + a;
      const ownWait = mhz > 0 ? (s.clientFraction[c]! * h.demandMhz[v]! - a) / mhz : 0;
      s.vmReadyCores[i] = s.vmReadyCores[i]! + ownWait + (allocSum > 0 ? (residual * a) / allocSum : 0);
    }
    delivered += allocSum;
  }
  for (let i = 0; i < n; i++) {
    const v = h.vms[i]!;
    const a = s.vmDeliveredMhz[i]!;
    deliveredMhz[v] = a;
    const maxWait = h.vcpus[v]! - (mhz > 0 ? a / mhz : 0);
    readyMs[v] = mhz > 0 ? Math.max(0, Math.min(s.vmReadyCores[i]!, maxWait)) * intervalMs : 0;
  }
  return delivered;
}

/** Whether another client of the same VM already sits on node j (clients of one VM are adjacent; unplaced ones hold -1). */
function sharesPoolWithSibling(s: CpuShareScratch, c: number, j: number, m: number): boolean {
  const vm = s.clientVm[c]!;
  for (let d = c - 1; d >= 0 && s.clientVm[d] === vm; d--) if (s.clientPool[d] === j) return true;
  for (let d = c + 1; d < m && s.clientVm[d] === vm; d++) if (s.clientPool[d] === j) return true;
  return false;
}

/** Node j is less loaded than node k: offered MHz per core, then vCPUs per core, then index. */
function lessLoaded(s: CpuShareScratch, j: number, k: number): boolean {
  const lj = s.poolOfferedMhz[j]! / s.poolCores[j]!;
  const lk = s.poolOfferedMhz[k]! / s.poolCores[k]!;
  if (lj !== lk) return lj < lk;
  return s.poolVcpus[j]! / s.poolCores[j]! < s.poolVcpus[k]! / s.poolCores[k]!;
}
