import type { InventoryView } from "../model/inventory.js";
import { filterNodes, LatestPlacementIndex, prioritizeNodes, type ClusterContext, type PlacementContext, type PlacementPolicy, type PodMeta } from "../placement/index.js";
import { DefaultProfile } from "./default-strategy.js";
import { copyObservation, type Observation } from "./observation-ring.js";
import { nodeIdentities, observedInventory } from "./observed-inventory.js";
import { SimClusterView } from "./sim-cluster-view.js";
import { selectHost, type Strategy, type StrategyDeps } from "./strategy.js";

/** One hvx placement as the direct path made it (for the HTTP parity test). */
export interface HvxDecision {
  readonly step: number;
  readonly pod: number;
  readonly nowMs: number;
  /** The sample the decision saw (undefined before the first one). */
  readonly observation: Observation | undefined;
  readonly cluster: ClusterContext | undefined;
  readonly feasible: readonly string[];
  readonly passed: readonly string[];
  /** hvx's prioritize scores (0..10) and the default profile's scores (Fit + BalancedAllocation + 2 x PodTopologySpread), per passed node. */
  readonly extenderScores: readonly number[];
  readonly defaultScores: readonly number[];
  /** Node name, or undefined when the pod stays pending. */
  readonly chosen: string | undefined;
}

export interface HvxStrategyOptions {
  /** Pass the Kubernetes view (burst guard, limits, spread); default true. */
  readonly cluster?: boolean;
  readonly record?: (decision: HvxDecision) => void;
}

/** The extender's weight in manifests/kube-scheduler-config.yaml. */
export const HVX_EXTENDER_WEIGHT = 5;
/** kube-scheduler scales extender scores: MaxNodeScore (100) / MaxExtenderPriority (10). */
const EXTENDER_SCALE = 10;

/**
 * kube-scheduler's default profile with the hvx extender: the nodes that pass
 * feasibility go through hvx's real `filterNodes` (production thresholds); the
 * survivors get the default profile's scores (scored over the survivors, as kube-scheduler
 * scores only the nodes its extenders let through) plus hvx's `prioritizeNodes` score x
 * weight x 10, exactly as kube-scheduler combines an extender's priorities. With `cluster`
 * (the default) the placement context carries the Kubernetes view too, so the burst
 * guard, the limit caps and the host spread run as they do with the informers on.
 */
export function hvxStrategy(deps: StrategyDeps, policy: PlacementPolicy, opts: HvxStrategyOptions = {}): Strategy {
  const { world, state, ring } = deps;
  const identities = nodeIdentities(world);
  const indexByName = new Map(identities.map((id, n) => [id.name, n]));
  const stepMs = world.stepSeconds * 1000;
  let cachedStep = -1;
  let inventory: InventoryView | undefined;
  let recordedObs: Observation | undefined;
  const cluster = opts.cluster === false ? undefined : new SimClusterView(world, world.startMs);
  const profile = new DefaultProfile(deps);
  // One placement index per snapshot pair (observed inventory of the step, cluster view between bindings).
  const latestIndex = new LatestPlacementIndex();
  const contextAt = (step: number): PlacementContext => {
    if (cachedStep !== step || inventory === undefined) {
      const obs = ring.visibleAt(step);
      const nowMs = world.startMs + step * stepMs;
      inventory = observedInventory(world, obs, state.vmHost, state.hostInMaintenance, nowMs);
      cachedStep = step;
    }
    return { inventory, policy, nowMs: world.startMs + step * stepMs };
  };
  const withPod = (ctx: PlacementContext, pod: number): PlacementContext => {
    const view = cluster?.current();
    const index = latestIndex.indexFor(ctx.inventory, view, ctx.policy);
    return cluster && view ? { ...ctx, cluster: { view, pod: cluster.podView(pod) }, index } : { ...ctx, index };
  };
  return {
    name: "hvx",
    choose(pod, feasible, step) {
      const ctx = withPod(contextAt(step), pod);
      const meta = podMetaOf(world.pods.names[pod]!, world.pods.priority[pod]!);
      const outcome = filterNodes(meta, feasible.map((n) => identities[n]!), ctx);
      const passed = outcome.passed.map((name) => indexByName.get(name)!);
      const ext = passed.length > 0 ? prioritizeNodes(meta, passed.map((n) => identities[n]!), ctx) : [];
      const defaults = profile.scores(pod, passed);
      const scores = passed.map((_, i) => defaults[i]! + ext[i]!.score * HVX_EXTENDER_WEIGHT * EXTENDER_SCALE);
      const chosen = passed.length > 0 ? selectHost(passed, scores, deps.rng) : -1;
      if (opts.record) {
        const obs = ring.visibleAt(step);
        if (obs && recordedObs?.step !== obs.step) recordedObs = copyObservation(obs);
        opts.record({
          step,
          pod,
          nowMs: ctx.nowMs,
          observation: obs ? recordedObs : undefined,
          cluster: ctx.cluster,
          feasible: feasible.map((n) => identities[n]!.name),
          passed: outcome.passed,
          extenderScores: ext.map((e) => e.score),
          defaultScores: defaults,
          chosen: chosen >= 0 ? identities[chosen]!.name : undefined,
        });
      }
      return chosen;
    },
    bound(pod, node, step) {
      cluster?.bind(pod, node, step);
    },
    unbound(pod, node) {
      cluster?.unbind(pod, node);
    },
  };
}

/** A simulated pod as the placement code sees it: a ReplicaSet pod in namespace `default`. */
export function podMetaOf(name: string, priority: number): PodMeta {
  return { namespace: "default", name, ownerKinds: ["ReplicaSet"], priority, annotations: {} };
}
