import type { HostForecast } from "../model/host-forecast.js";
import type { InventoryView } from "../model/inventory.js";
import { HostLoadProfiles } from "../placement/host-load-profiles.js";
import { predictionHorizonMs } from "../placement/predicted-heat.js";
import {
  extenderPriority,
  filterNodes,
  InFlightLedger,
  LatestPlacementIndex,
  prioritizeNodes,
  recordAnswer,
  type ClusterContext,
  type PlacementContext,
  type PlacementPolicy,
  type PodMeta,
} from "../placement/index.js";
import { DefaultProfile } from "./default-strategy.js";
import { copyObservation, type Observation } from "./observation-ring.js";
import { nodeIdentities, observedInventory } from "./observed-inventory.js";
import { SimClusterView } from "./sim-cluster-view.js";
import { controllerKindOf, podClassesOf } from "./sim-pod-facts.js";
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
  /**
   * hvx's prioritize priorities (integers 0..10, as kube-scheduler receives them) and the default profile's scores
   * (Fit + BalancedAllocation + 2 x PodTopologySpread), per passed node.
   */
  readonly extenderScores: readonly number[];
  readonly defaultScores: readonly number[];
  /** Node name, or undefined when the pod stays pending. */
  readonly chosen: string | undefined;
  /** The predicted peaks the decision saw (undefined: the present alone decided). */
  readonly forecasts: ReadonlyMap<string, HostForecast> | undefined;
}

export interface HvxStrategyOptions {
  /** Pass the Kubernetes view (burst guard, limits, spread); default true. */
  readonly cluster?: boolean;
  readonly record?: (decision: HvxDecision) => void;
  /** Count pods hvx answered for until its cluster view shows them bound (src/placement/in-flight-ledger.ts); default true. */
  readonly inFlightLedger?: boolean;
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
  let withForecasts: InventoryView | undefined;
  let recordedObs: Observation | undefined;
  const withLedger = opts.cluster !== false && opts.inFlightLedger !== false;
  const cluster =
    opts.cluster === false
      ? undefined
      : new SimClusterView(
          world,
          world.startMs,
          withLedger ? (uid, how) => ledger!.settled(uid, how) : undefined,
          podClassesOf(world, policy.workloadClasses),
        );
  const ledger = withLedger ? new InFlightLedger({ pendingPod: (uid) => cluster!.pendingPod(uid) }) : undefined;
  const profile = new DefaultProfile(deps);
  // One placement index per snapshot pair (observed inventory of the step, cluster view between bindings).
  const latestIndex = new LatestPlacementIndex();
  // Predicted heat learns from the samples hvx has seen, as the poller does in production.
  const learnt = policy.prediction?.enabled ? new HostLoadProfiles() : undefined;
  let fedStep = -1;
  const contextAt = (step: number, atMs: number): PlacementContext => {
    if (cachedStep !== step || inventory === undefined) {
      const obs = ring.visibleAt(step);
      const nowMs = world.startMs + step * stepMs;
      inventory = observedInventory(world, obs, state.vmHost, state.hostInMaintenance, nowMs);
      cachedStep = step;
      withForecasts = undefined;
    }
    return { inventory, policy, nowMs: atMs };
  };
  const withPod = (ctx: PlacementContext, pod: number): PlacementContext => {
    if (!cluster) return { ...ctx, index: latestIndex.indexFor(ctx.inventory, undefined, ctx.policy) };
    const podView = cluster.podView(pod);
    const view = ledger ? ledger.viewWith(cluster.current(ctx.nowMs), ctx.nowMs, podView.uid) : cluster.current(ctx.nowMs);
    return { ...ctx, cluster: { view, pod: podView }, index: latestIndex.indexFor(ctx.inventory, view, ctx.policy) };
  };
  // The forecasts of this step's snapshot, built once and only for a pod that looks ahead (not a Job's).
  const predicting = (ctx: PlacementContext, meta: PodMeta): PlacementContext => {
    if (!learnt || predictionHorizonMs(meta, policy.prediction) === 0) return ctx;
    withForecasts ??= { ...ctx.inventory, forecasts: learnt.forecasts(ctx.nowMs) };
    return { ...ctx, inventory: withForecasts };
  };
  return {
    name: "hvx",
    choose(pod, feasible, step, atMs = world.startMs + step * stepMs) {
      const meta = podMetaOf(world.pods.names[pod]!, world.pods.priority[pod]!, controllerKindOf(world, pod));
      const ctx = withPod(predicting(contextAt(step, atMs), meta), pod);
      const outcome = filterNodes(
        meta,
        feasible.map((n) => identities[n]!),
        ctx,
      );
      const passed = outcome.passed.map((name) => indexByName.get(name)!);
      const ext =
        passed.length > 0
          ? prioritizeNodes(
              meta,
              passed.map((n) => identities[n]!),
              ctx,
            )
          : [];
      const defaults = profile.scores(pod, passed);
      // What kube-scheduler receives: an integer priority per node.
      const priorities = ext.map((e) => extenderPriority(e.score));
      const scores = passed.map((_, i) => defaults[i]! + priorities[i]! * HVX_EXTENDER_WEIGHT * EXTENDER_SCALE);
      const chosen = passed.length > 0 ? selectHost(passed, scores, deps.rng) : -1;
      if (ledger) recordAnswer(ledger, ext, ctx);
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
          extenderScores: priorities,
          defaultScores: defaults,
          chosen: chosen >= 0 ? identities[chosen]!.name : undefined,
          forecasts: ctx.inventory.forecasts,
        });
      }
      return chosen;
    },
    observed(obs) {
      // The sample hvx may see from the next step on (the ring's lag), recorded once.
      const visible = learnt ? ring.visibleAt(obs.step + 1) : undefined;
      if (!learnt || !visible || visible.step === fedStep) return;
      fedStep = visible.step;
      // The next step's snapshot itself (the same sample, polled at that step): its decisions reuse it.
      const next = obs.step + 1;
      inventory = observedInventory(world, visible, state.vmHost, state.hostInMaintenance, world.startMs + next * stepMs);
      cachedStep = next;
      withForecasts = undefined;
      learnt.recordInventory(inventory, world.stepSeconds);
    },
    bound(pod, node, step, atMs = world.startMs + step * stepMs) {
      cluster?.bind(pod, node, atMs);
    },
    unbound(pod, node) {
      cluster?.unbind(pod, node);
    },
  };
}

/**
 * A simulated pod as the placement code sees it: a ReplicaSet's pod, or a Job's (batches), in
 * namespace `default`, without `activeDeadlineSeconds` (scenarios declare none).
 */
export function podMetaOf(name: string, priority: number, ownerKind: "ReplicaSet" | "Job" = "ReplicaSet"): PodMeta {
  return { namespace: "default", name, ownerKinds: [ownerKind], priority, annotations: {} };
}
