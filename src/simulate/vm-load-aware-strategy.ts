import { addSpreadScores, balancedScore, fitScore } from "./default-strategy.js";
import { predictUtilisationMilli, targetLoadPackingScore, TLP_REPORTING_INTERVAL_S } from "./target-load-packing.js";
import { selectHost, type Strategy, type StrategyDeps } from "./strategy.js";

/**
 * A Trimaran profile as its sample configuration deploys it: TargetLoadPacking enabled, and
 * `NodeResourcesBalancedAllocation` and `NodeResourcesLeastAllocated` disabled at the score
 * extension point. The second name no longer exists (removed in v1beta2; the strategy became
 * an argument of NodeResourcesFit), so disabling it does nothing and NodeResourcesFit keeps
 * scoring; PodTopologySpread (weight 2) stays on as in every default profile:
 *
 *   score = TLP + Fit (+ BalancedAllocation if `vmLoadAware.balancedAllocation`) + 2 x PodTopologySpread
 *
 * TLP sees only the node VM's own CPU utilisation (delivered CPU / its vCPUs, what
 * metrics-server reports), averaged over `metricsWindowSeconds` and `metricsAgeSeconds` old.
 * Pods bound after the end of that window, or less than 60 s before it, count with their
 * predicted utilisation (Trimaran's PodAssignEventHandler cache).
 */
export function vmLoadAwareStrategy(deps: StrategyDeps): Strategy {
  const { world } = deps;
  const cfg = world.scenario.vmLoadAware;
  const stepS = world.stepSeconds;
  const stepMs = stepS * 1000;
  const ageSteps = Math.ceil(cfg.metricsAgeSeconds / stepS);
  const windowSteps = Math.max(1, Math.ceil(cfg.metricsWindowSeconds / stepS));
  const N = world.nodes.count;
  // per-node utilisation of the last `depth` samples, slot = step mod depth
  const depth = ageSteps + windowSteps + 1;
  const history = new Float64Array(depth * N);
  const historyStep = new Int32Array(depth).fill(-1);
  const recent: Array<Array<{ atMs: number; milli: number }>> = Array.from({ length: N }, () => []);
  let spreadScratch = new Float64Array(64);
  const predicted = (pod: number) => predictUtilisationMilli(world.pods.limCpuMilli[pod]!, world.pods.reqCpuMilli[pod]!);
  /** Newest sample the plugin may use at the start of `step` (-1: none yet). */
  const newestAt = (step: number) => step - 1 - ageSteps;
  const windowEndMs = (k: number) => world.startMs + (k + 1) * stepMs;

  /** Mean utilisation of node n over the window ending with sample k (the samples that exist). */
  const utilisation = (n: number, k: number): number => {
    let sum = 0;
    let count = 0;
    for (let j = Math.max(0, k - windowSteps + 1); j <= k; j++) {
      const slot = j % depth;
      if (historyStep[slot] !== j) continue;
      sum += history[slot * N + n]!;
      count++;
    }
    return count > 0 ? sum / count : 0;
  };

  return {
    name: "vm-load-aware",
    choose(pod, feasible, step) {
      const k = newestAt(step);
      const podMilli = predicted(pod);
      const scores = feasible.map((n) => fitScore(deps, pod, n) + (cfg.balancedAllocation ? balancedScore(deps, pod, n) : 0));
      for (let i = 0; i < feasible.length; i++) {
        const n = feasible[i]!;
        if (k < 0) continue; // no metrics yet: TLP scores MinNodeScore (0) everywhere
        const endMs = windowEndMs(k);
        let missing = 0;
        for (const b of recent[n]!) {
          if (b.atMs > endMs || endMs - b.atMs < TLP_REPORTING_INTERVAL_S * 1000) missing += b.milli;
        }
        scores[i] = scores[i]! + targetLoadPackingScore(utilisation(n, k), world.vms.vcpus[n]! * 1000, podMilli, missing);
      }
      if (spreadScratch.length < feasible.length) spreadScratch = new Float64Array(feasible.length * 2);
      addSpreadScores(deps, pod, feasible, scores, spreadScratch);
      return selectHost(feasible, scores, deps.rng);
    },
    bound(pod, node, step) {
      const atMs = world.startMs + step * stepMs;
      const list = recent[node]!;
      // drop bindings that can no longer count: older than the reporting interval before any future window end
      const horizon = windowEndMs(Math.max(-1, newestAt(step))) - TLP_REPORTING_INTERVAL_S * 1000;
      let keep = 0;
      for (const b of list) if (b.atMs > horizon) list[keep++] = b;
      list.length = keep;
      list.push({ atMs, milli: predicted(pod) });
    },
    observed(obs) {
      const slot = obs.step % depth;
      historyStep[slot] = obs.step;
      for (let n = 0; n < N; n++) history[slot * N + n] = obs.vmUtilPercent[n]!;
    },
  };
}
