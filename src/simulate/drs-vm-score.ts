import { vmotionCostMhzSeconds, type DrsInput, type DrsMove } from "./drs-balance.js";

/**
 * A vSphere 7-style DRS pass (docs/simulation.md section 11, `model: vm-score`). vSphere 7
 * balances on each VM's "DRS score" (VM happiness: CPU ready among its inputs), every minute,
 * and moves a VM when another host would serve it better (VMware blog "vSphere 7 - A Closer
 * Look at the VM DRS Score", 2020; vSphere 7 Resource Management, "DRS Score"). VMware does
 * not publish the score's formula, so this is a model of the idea, not of the product:
 *
 * - a VM is unhappy when its ready per vCPU, averaged over the interval, is >= vmReadyPercent;
 * - unhappy VMs are taken most-ready first; each moves to the in-service host with memory for
 *   it whose CPU load after the move is lowest, if that is below its current host's load
 *   (with the VM) — another host serves it better;
 * - cost-benefit: the benefit is the VM's ready time relieved over the interval,
 *   ready/100 x vCPUs x MHz per core x interval (MHz x s), against the vMotion's cost
 *   (drs-balance.ts); at most `maxMovesPerHost` moves leave one host per pass;
 * - migration threshold 1 applies mandatory moves only (none here); levels 2-5 act alike
 *   (VMware publishes no mapping from the level to a score gain).
 */
export interface DrsVmScoreInput extends DrsInput {
  readonly vmVcpus: ArrayLike<number>;
  /** Per VM: ready % per vCPU averaged over the interval. */
  readonly vmReadyPercent: ArrayLike<number>;
  readonly vmReadyThresholdPercent: number;
}

/** The moves of one vm-score pass (applied in order). */
export function drsVmScorePass(input: DrsVmScoreInput): DrsMove[] {
  if (input.migrationThreshold <= 1) return [];
  const H = input.hostCpuMhz.length;
  const V = input.vmHost.length;
  const f = input.filters;
  const host = Array.from(input.vmHost);
  const load = new Float64Array(H);
  const mem = new Float64Array(H);
  const movesFrom = new Int32Array(H);
  for (let v = 0; v < V; v++) {
    const h = host[v]!;
    if (input.hostCpuMhz[h]! > 0) load[h] = load[h]! + input.vmCpuMhz[v]! / input.hostCpuMhz[h]!;
    mem[h] = mem[h]! + input.vmMemMiB[v]!;
  }
  const unhappy: number[] = [];
  for (let v = 0; v < V; v++) {
    if (!input.hostInMaintenance[host[v]!] && input.vmReadyPercent[v]! >= input.vmReadyThresholdPercent) unhappy.push(v);
  }
  unhappy.sort((a, b) => input.vmReadyPercent[b]! - input.vmReadyPercent[a]! || a - b);
  const moves: DrsMove[] = [];
  for (const v of unhappy) {
    const from = host[v]!;
    if (movesFrom[from]! >= f.maxMovesPerHost) continue;
    let best = -1;
    let bestLoad = load[from]!;
    for (let to = 0; to < H; to++) {
      if (to === from || input.hostInMaintenance[to] || input.hostCpuMhz[to]! <= 0) continue;
      if (mem[to]! + input.vmMemMiB[v]! > input.hostUsableMemMiB[to]!) continue;
      const after = load[to]! + input.vmCpuMhz[v]! / input.hostCpuMhz[to]!;
      if (after < bestLoad) {
        bestLoad = after;
        best = to;
      }
    }
    if (best < 0) continue;
    if (f.costBenefit) {
      const benefit = (input.vmReadyPercent[v]! / 100) * input.vmVcpus[v]! * f.hostMhzPerCore[from]! * f.intervalSeconds;
      if (benefit <= vmotionCostMhzSeconds(input.vmMemMiB[v]!, f.hostMhzPerCore[from]!, f.hostMhzPerCore[best]!, f.vmotionMiBPerSecond))
        continue;
    }
    load[from] = load[from]! - input.vmCpuMhz[v]! / input.hostCpuMhz[from]!;
    load[best] = load[best]! + input.vmCpuMhz[v]! / input.hostCpuMhz[best]!;
    mem[from] = mem[from]! - input.vmMemMiB[v]!;
    mem[best] = mem[best]! + input.vmMemMiB[v]!;
    host[v] = best;
    movesFrom[from] = movesFrom[from]! + 1;
    moves.push({ vm: v, from, to: best });
  }
  return moves;
}
