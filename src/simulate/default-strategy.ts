import { balancedAllocationScore, leastAllocatedScore } from "./default-scores.js";
import { selectHost, type Strategy, type StrategyDeps } from "./strategy.js";

const BYTES_PER_MIB = 1024 * 1024;

/**
 * kube-scheduler's default profile, resource part: NodeResourcesFit (LeastAllocated,
 * weight 1) + NodeResourcesBalancedAllocation (weight 1), each 0..100, on requests
 * including the incoming pod. Blind to usage and to hosts.
 */
export function defaultNodeScore(deps: StrategyDeps, pod: number, node: number): number {
  const { state, world } = deps;
  const { pods, nodes } = world;
  const nzCpu = state.nodeNzCpuMilli[node]! + (pods.reqCpuMilli[pod]! > 0 ? pods.reqCpuMilli[pod]! : 100);
  const nzMem = (state.nodeNzMemMiB[node]! + (pods.reqMemMiB[pod]! > 0 ? pods.reqMemMiB[pod]! : 200 / 1.048576)) * BYTES_PER_MIB;
  const cpu = state.nodeReqCpuMilli[node]! + pods.reqCpuMilli[pod]!;
  const mem = (state.nodeReqMemMiB[node]! + pods.reqMemMiB[pod]!) * BYTES_PER_MIB;
  const allocCpu = nodes.allocCpuMilli[node]!;
  const allocMem = nodes.allocMemMiB[node]! * BYTES_PER_MIB;
  return leastAllocatedScore(nzCpu, allocCpu, Math.round(nzMem), allocMem) + balancedAllocationScore(cpu, allocCpu, mem, allocMem);
}

export function defaultStrategy(deps: StrategyDeps): Strategy {
  let scores = new Float64Array(64);
  return {
    name: "default",
    choose(pod, feasible) {
      if (scores.length < feasible.length) scores = new Float64Array(feasible.length * 2);
      for (let i = 0; i < feasible.length; i++) scores[i] = defaultNodeScore(deps, pod, feasible[i]!);
      return selectHost(feasible, scores, deps.rng);
    },
  };
}
