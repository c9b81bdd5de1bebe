import type { World } from "./build-world.js";
import type { Observation, ObservationRing } from "./observation-ring.js";
import type { Rng } from "../random/prng.js";
import type { RunState } from "./run-state.js";

/** The schedulers compared (the benchmarks run these). */
export const STRATEGY_NAMES = ["default", "vm-load-aware", "hvx", "hvx+rebalance"] as const;
/** The clairvoyant reference (oracle-strategy.ts): sees the future load; no scheduler can. */
export const ORACLE = "oracle";
/** Every strategy of a report: the schedulers, then the reference. */
export const REPORT_STRATEGY_NAMES = [...STRATEGY_NAMES, ORACLE] as const;
export type StrategyName = (typeof REPORT_STRATEGY_NAMES)[number];

/** What a strategy may read: the run's state (Kubernetes view) and the lagged samples. */
export interface StrategyDeps {
  readonly world: World;
  readonly state: RunState;
  readonly ring: ObservationRing;
  /** Tie-breaks (kube-scheduler picks uniformly among the best nodes). */
  readonly rng: Rng;
  /**
   * Evicts a running pod on hvx's behalf (rebalancing): it leaves its node, is counted in
   * `hvxEvictions` and goes back to the scheduling queue `restartSeconds` later (rounded up
   * to whole steps). The one way a strategy evicts.
   */
  readonly evictPod: (pod: number, step: number, restartSeconds: number) => void;
}

/**
 * One placement policy. `choose` gets the nodes that pass kube-scheduler's own
 * feasibility (requests fit allocatable) and returns the node index, or -1 to leave
 * the pod pending.
 */
export interface Strategy {
  readonly name: StrategyName;
  choose(pod: number, feasible: readonly number[], step: number, atMs?: number): number;
  /** Told after every binding (strategies that remember recent placements); `atMs`: when it was decided. */
  bound?(pod: number, node: number, step: number, atMs?: number): void;
  /** Told when a running pod leaves its node (finished or evicted). */
  unbound?(pod: number, node: number): void;
  /** Told every step the sample just recorded (strategies that keep their own metrics history). */
  observed?(obs: Observation): void;
  /** Running pods the strategy evicts at the end of the step (hvx's rebalancer); they restart through the scheduler. */
  evictAfterStep?(step: number): readonly number[];
}

/**
 * kube-scheduler's selectHost: the highest total score wins; among equal scores each
 * is picked with equal probability (reservoir sampling with the run's seeded generator).
 */
export function selectHost(candidates: readonly number[], scores: ArrayLike<number>, rng: Rng): number {
  let best = -1;
  let bestScore = -Infinity;
  let ties = 0;
  for (let i = 0; i < candidates.length; i++) {
    const s = scores[i]!;
    if (s > bestScore) {
      bestScore = s;
      best = candidates[i]!;
      ties = 1;
    } else if (s === bestScore) {
      ties++;
      if (Math.floor(rng() * ties) === 0) best = candidates[i]!;
    }
  }
  return best;
}
