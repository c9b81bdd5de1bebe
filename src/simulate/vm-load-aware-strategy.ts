import { predictUtilisationMilli, targetLoadPackingScore, TLP_REPORTING_INTERVAL_S } from "./target-load-packing.js";
import { selectHost, type Strategy, type StrategyDeps } from "./strategy.js";

/**
 * A Trimaran-style profile: TargetLoadPacking alone (LeastAllocated and
 * BalancedAllocation disabled, as its README configures it), fed the node VM's own CPU
 * utilisation with the poller's lag. It sees neither the host nor the host's other VMs.
 * Pods bound after the metrics window ended, or less than 60 s before its end, count
 * with their predicted utilisation (Trimaran's PodAssignEventHandler cache).
 */
export function vmLoadAwareStrategy(deps: StrategyDeps): Strategy {
  const { world, ring } = deps;
  const recent: Array<Array<{ atMs: number; milli: number }>> = Array.from({ length: world.nodes.count }, () => []);
  let scores = new Float64Array(64);
  const stepMs = world.stepSeconds * 1000;
  const predicted = (pod: number) => predictUtilisationMilli(world.pods.limCpuMilli[pod]!, world.pods.reqCpuMilli[pod]!);
  return {
    name: "vm-load-aware",
    choose(pod, feasible, step) {
      const obs = ring.visibleAt(step);
      if (scores.length < feasible.length) scores = new Float64Array(feasible.length * 2);
      const podMilli = predicted(pod);
      for (let i = 0; i < feasible.length; i++) {
        const n = feasible[i]!;
        if (!obs) {
          scores[i] = 0;
          continue;
        }
        const windowEndMs = obs.sampledAtMs;
        let missing = 0;
        const list = recent[n]!;
        for (const b of list) {
          if (b.atMs > windowEndMs || windowEndMs - b.atMs < TLP_REPORTING_INTERVAL_S * 1000) missing += b.milli;
        }
        scores[i] = targetLoadPackingScore(obs.vmUtilPercent[n]!, world.vms.vcpus[n]! * 1000, podMilli, missing);
      }
      return selectHost(feasible, scores, deps.rng);
    },
    bound(pod, node, step) {
      const atMs = world.startMs + step * stepMs;
      const list = recent[node]!;
      // drop bindings that can no longer count: older than the reporting interval before any future window end
      const obs = ring.visibleAt(step);
      const horizon = (obs ? obs.sampledAtMs : world.startMs) - TLP_REPORTING_INTERVAL_S * 1000;
      let keep = 0;
      for (const b of list) if (b.atMs > horizon) list[keep++] = b;
      list.length = keep;
      list.push({ atMs, milli: predicted(pod) });
    },
  };
}
