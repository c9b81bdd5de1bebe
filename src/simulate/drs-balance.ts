/**
 * vSphere DRS load balancing, vSphere 6.x model (docs/simulation.md section 11): the
 * cluster's imbalance is the standard deviation over in-service hosts of host load =
 * sum of its VMs' CPU demand (the interval's average) / host CPU capacity ("Current host
 * load standard deviation"). VMware KB 1007485 gives a recommendation's priority as
 * 6 - ceil(imbalance / 0.1 x sqrt(hosts)); it is applied when priority <= the migration
 * threshold, so balancing runs while
 *
 *   imbalance > (5 - threshold) x 0.1 / sqrt(hosts)          ("Target host load standard deviation")
 *
 * (0.2 / sqrt(8) = 0.071 at threshold 3 with 8 hosts). Threshold 1 applies mandatory moves
 * only (none here). Each move is the vMotion, of any VM (DRS sees VMs, never pods) to any
 * in-service host with memory for it, that lowers the imbalance most among the moves that
 * pass DRS's filters (Denneman, "Disabling MinGoodness and CostBenefit", 2012; KB 1017291):
 *
 *   MinGoodness:   goodness = imbalance before - imbalance after >= minGoodness
 *   cost-benefit:  benefit = (unbalanced MHz before - after) x interval  >  cost = vMotion time x 2 cores
 *                  unbalanced MHz = sum_h C_h |load_h - mean| / 2;  vMotion time = memory / copy rate;
 *                  vMotion holds a core on the source and on the target host while it copies
 *
 * and at most `maxMovesPerHost` moves leave one source host per pass. Pure: arrays in, moves out.
 */
export interface DrsInput {
  /** Per host: CPU capacity (MHz), physical memory less ESXi's minFree (MiB), in maintenance. */
  readonly hostCpuMhz: ArrayLike<number>;
  readonly hostUsableMemMiB: ArrayLike<number>;
  readonly hostInMaintenance: ArrayLike<number>;
  /** Per VM: current host, average CPU demand (MHz) and memory demand (MiB) over the interval. */
  readonly vmHost: ArrayLike<number>;
  readonly vmCpuMhz: ArrayLike<number>;
  readonly vmMemMiB: ArrayLike<number>;
  readonly migrationThreshold: number;
  readonly filters: DrsFilters;
}

/** DRS's move filters and limits (scenario `drs`). */
export interface DrsFilters {
  /** Per host: MHz of one core (a vMotion holds one core on each side). */
  readonly hostMhzPerCore: ArrayLike<number>;
  readonly maxMovesPerHost: number;
  /** MinGoodness, in host load standard deviation; 0 turns it off. */
  readonly minGoodness: number;
  readonly costBenefit: boolean;
  readonly vmotionMiBPerSecond: number;
  /** The time a move's benefit is counted over: the pass interval. */
  readonly intervalSeconds: number;
}

/** What a vMotion costs, MHz x s: one core on the source and one on the target while the VM's memory is copied. */
export function vmotionCostMhzSeconds(memMiB: number, fromCoreMhz: number, toCoreMhz: number, mibPerSecond: number): number {
  return ((fromCoreMhz + toCoreMhz) * memMiB) / mibPerSecond;
}

export interface DrsMove {
  readonly vm: number;
  readonly from: number;
  readonly to: number;
}

/** The imbalance DRS tolerates at a migration threshold (1..5) with `hosts` hosts; Infinity at 1. */
export function drsTolerance(migrationThreshold: number, hosts: number): number {
  if (migrationThreshold <= 1 || hosts < 2) return Infinity;
  return ((5 - migrationThreshold) * 0.1) / Math.sqrt(hosts);
}

/** Population standard deviation of host loads over in-service hosts. */
export function hostLoadStdDev(loads: ArrayLike<number>, inMaintenance: ArrayLike<number>): number {
  let n = 0;
  let s1 = 0;
  let s2 = 0;
  for (let h = 0; h < loads.length; h++) {
    if (inMaintenance[h]) continue;
    n++;
    s1 += loads[h]!;
    s2 += loads[h]! * loads[h]!;
  }
  if (n === 0) return 0;
  const mean = s1 / n;
  return Math.sqrt(Math.max(0, s2 / n - mean * mean));
}

/** The moves of one DRS pass (applied in order). */
export function drsPass(input: DrsInput): DrsMove[] {
  const H = input.hostCpuMhz.length;
  const V = input.vmHost.length;
  const f = input.filters;
  const live: number[] = [];
  for (let h = 0; h < H; h++) if (!input.hostInMaintenance[h] && input.hostCpuMhz[h]! > 0) live.push(h);
  const tolerance = drsTolerance(input.migrationThreshold, live.length);
  if (!Number.isFinite(tolerance)) return [];
  const host = Array.from(input.vmHost);
  const load = new Float64Array(H);
  const mem = new Float64Array(H);
  const movesFrom = new Int32Array(H);
  for (let v = 0; v < V; v++) {
    const h = host[v]!;
    if (input.hostCpuMhz[h]! > 0) load[h] = load[h]! + input.vmCpuMhz[v]! / input.hostCpuMhz[h]!;
    mem[h] = mem[h]! + input.vmMemMiB[v]!;
  }
  const n = live.length;
  let s1 = 0;
  let s2 = 0;
  for (const h of live) {
    s1 += load[h]!;
    s2 += load[h]! * load[h]!;
  }
  const std = (a: number, b: number) => Math.sqrt(Math.max(0, b / n - (a / n) * (a / n)));
  const moves: DrsMove[] = [];
  for (;;) {
    const current = std(s1, s2);
    if (current <= tolerance) break;
    const mean = s1 / n;
    // unbalanced MHz of one host: C |load - mean| / 2 (the mean is unchanged by a move between hosts of equal capacity)
    const unbalanced = (h: number, l: number) => (input.hostCpuMhz[h]! * Math.abs(l - mean)) / 2;
    let best: DrsMove | undefined;
    let bestStd = current - Math.max(f.minGoodness, 1e-9);
    let bestS1 = 0;
    let bestS2 = 0;
    for (let v = 0; v < V; v++) {
      const from = host[v]!;
      if (input.hostInMaintenance[from] || input.vmCpuMhz[v]! <= 0 || movesFrom[from]! >= f.maxMovesPerHost) continue;
      const dFrom = input.vmCpuMhz[v]! / input.hostCpuMhz[from]!;
      const lf = load[from]! - dFrom;
      for (const to of live) {
        if (to === from || mem[to]! + input.vmMemMiB[v]! > input.hostUsableMemMiB[to]!) continue;
        const lt = load[to]! + input.vmCpuMhz[v]! / input.hostCpuMhz[to]!;
        const a = s1 - load[from]! - load[to]! + lf + lt;
        const b = s2 - load[from]! ** 2 - load[to]! ** 2 + lf * lf + lt * lt;
        const sd = std(a, b);
        if (sd >= bestStd) continue;
        if (f.costBenefit) {
          const gainMhz = unbalanced(from, load[from]!) + unbalanced(to, load[to]!) - unbalanced(from, lf) - unbalanced(to, lt);
          const cost = vmotionCostMhzSeconds(input.vmMemMiB[v]!, f.hostMhzPerCore[from]!, f.hostMhzPerCore[to]!, f.vmotionMiBPerSecond);
          if (gainMhz * f.intervalSeconds <= cost) continue;
        }
        bestStd = sd;
        best = { vm: v, from, to };
        bestS1 = a;
        bestS2 = b;
      }
    }
    if (best === undefined) break;
    const d = input.vmCpuMhz[best.vm]!;
    load[best.from] = load[best.from]! - d / input.hostCpuMhz[best.from]!;
    load[best.to] = load[best.to]! + d / input.hostCpuMhz[best.to]!;
    mem[best.from] = mem[best.from]! - input.vmMemMiB[best.vm]!;
    mem[best.to] = mem[best.to]! + input.vmMemMiB[best.vm]!;
    host[best.vm] = best.to;
    movesFrom[best.from] = movesFrom[best.from]! + 1;
    s1 = bestS1;
    s2 = bestS2;
    moves.push(best);
  }
  return moves;
}
