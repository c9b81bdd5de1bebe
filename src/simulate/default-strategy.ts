import { balancedAllocationScore, DEFAULT_MEMORY_REQUEST_MIB, DEFAULT_MILLI_CPU_REQUEST, leastAllocatedScore } from "./default-scores.js";
import { normalizeSpreadScores, POD_TOPOLOGY_SPREAD_WEIGHT, spreadRawScore } from "./pod-topology-spread.js";
import { selectHost, type Strategy, type StrategyDeps } from "./strategy.js";

const BYTES_PER_MIB = 1024 * 1024;

/** NodeResourcesFit (LeastAllocated, weight 1) on non-zero requests including the incoming pod, 0..100. */
export function fitScore(deps: StrategyDeps, pod: number, node: number): number {
  const { state, world } = deps;
  const { pods, nodes } = world;
  const nzCpu = state.nodeNzCpuMilli[node]! + (pods.reqCpuMilli[pod]! > 0 ? pods.reqCpuMilli[pod]! : DEFAULT_MILLI_CPU_REQUEST);
  const nzMem =
    (state.nodeNzMemMiB[node]! + (pods.reqMemMiB[pod]! > 0 ? pods.reqMemMiB[pod]! : DEFAULT_MEMORY_REQUEST_MIB)) * BYTES_PER_MIB;
  return leastAllocatedScore(nzCpu, nodes.allocCpuMilli[node]!, Math.round(nzMem), nodes.allocMemMiB[node]! * BYTES_PER_MIB);
}

/** NodeResourcesBalancedAllocation (weight 1) on actual requests including the incoming pod, 0..100. */
export function balancedScore(deps: StrategyDeps, pod: number, node: number): number {
  const { state, world } = deps;
  const { pods, nodes } = world;
  const cpu = state.nodeReqCpuMilli[node]! + pods.reqCpuMilli[pod]!;
  const mem = (state.nodeReqMemMiB[node]! + pods.reqMemMiB[pod]!) * BYTES_PER_MIB;
  return balancedAllocationScore(cpu, nodes.allocCpuMilli[node]!, mem, nodes.allocMemMiB[node]! * BYTES_PER_MIB);
}

/** The default profile's resource part for one node: Fit + BalancedAllocation, 0..200. */
export function defaultNodeScore(deps: StrategyDeps, pod: number, node: number): number {
  return fitScore(deps, pod, node) + balancedScore(deps, pod, node);
}

/**
 * Adds PodTopologySpread x 2 for the scored `nodes` to `out` (system default constraints:
 * hostname, maxSkew 3; ReplicaSet pods only, a Job's pods have no default constraints).
 * `scratch` must hold at least nodes.length entries.
 */
export function addSpreadScores(
  deps: StrategyDeps,
  pod: number,
  nodes: readonly number[],
  out: Float64Array | number[],
  scratch: Float64Array,
): void {
  const rs = deps.world.pods.replicaSet[pod]!;
  if (rs < 0 || nodes.length === 0) return;
  const base = rs * deps.world.nodes.count;
  for (let i = 0; i < nodes.length; i++) scratch[i] = spreadRawScore(deps.state.nodeReplicaSetPods[base + nodes[i]!]!, nodes.length);
  normalizeSpreadScores(scratch, nodes.length);
  for (let i = 0; i < nodes.length; i++) out[i] = out[i]! + POD_TOPOLOGY_SPREAD_WEIGHT * scratch[i]!;
}

/**
 * The default profile's node scores for a pod: NodeResourcesFit + BalancedAllocation +
 * 2 x PodTopologySpread, over the nodes being scored. The other default score plugins
 * (TaintToleration, NodeAffinity, InterPodAffinity, ImageLocality) have no input in the
 * model and give every node the same score, so they cannot change the choice.
 */
export class DefaultProfile {
  private spread = new Float64Array(64);

  constructor(private readonly deps: StrategyDeps) {}

  scores(pod: number, nodes: readonly number[]): number[] {
    if (this.spread.length < nodes.length) this.spread = new Float64Array(nodes.length * 2);
    const out = nodes.map((n) => defaultNodeScore(this.deps, pod, n));
    addSpreadScores(this.deps, pod, nodes, out, this.spread);
    return out;
  }
}

/** kube-scheduler's default profile, blind to usage and to hosts. */
export function defaultStrategy(deps: StrategyDeps): Strategy {
  const profile = new DefaultProfile(deps);
  return {
    name: "default",
    choose(pod, feasible) {
      return selectHost(feasible, profile.scores(pod, feasible), deps.rng);
    },
  };
}
