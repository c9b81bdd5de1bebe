import type { PlacementPolicy } from "../placement/index.js";
import type { World } from "./build-world.js";
import { defaultStrategy } from "./default-strategy.js";
import { DrsRunner } from "./drs-runner.js";
import type { RunResult } from "./figures.js";
import { RunTally } from "./run-tally.js";
import { podClassesOf } from "./sim-pod-facts.js";
import type { DrsSettings } from "./scenario.js";
import { hvxStrategy, type HvxStrategyOptions } from "./hvx-strategy.js";
import { hvxRebalanceStrategy, simRebalancePolicyOf, type SimRebalancePolicy } from "./hvx-rebalance-strategy.js";
import { parseConfig } from "../config/index.js";
import { evictUnderPressure } from "./evict-under-pressure.js";
import { ObservationRing } from "./observation-ring.js";
import { mulberry32 } from "../random/prng.js";
import { PHASE_DONE, PHASE_RUNNING, RunState } from "./run-state.js";
import { StepPhysics } from "./step-physics.js";
import type { Strategy, StrategyDeps, StrategyName } from "./strategy.js";
import { UsageSeries } from "./usage-series.js";
import { vmLoadAwareStrategy } from "./vm-load-aware-strategy.js";
import { applyMaintenance } from "./maintenance.js";
import { oracleStrategy } from "./oracle-strategy.js";
import type { PhysicsName } from "./physics.js";

/** Pending pods that found no node are tried again after this many steps (60 s). */
export const RETRY_STEPS = 3;
/** kubelet's evictionPressureTransitionPeriod: the memory-pressure taint stays 5 min. */
export const PRESSURE_TAINT_STEPS = 15;
export { CONTENDED_READY_PERCENT, SEVERE_READY_PERCENT } from "./run-tally.js";

export interface SimulateStrategyOptions {
  readonly world: World;
  readonly strategy: StrategyName;
  readonly seed: number;
  readonly policy: PlacementPolicy;
  /** Options of the hvx strategy (tests: record decisions, drop the cluster view). */
  readonly hvx?: HvxStrategyOptions;
  /** DRS settings for this run (default: the scenario's `drs`). */
  readonly drs?: DrsSettings;
  /** The rebalancer's policy for `hvx+rebalance`; default: production's (`rebalance.*`, `admission.hotHostBrakePercent`). */
  readonly rebalance?: SimRebalancePolicy;
  /** The CPU model (default `overflow`). */
  readonly physics?: PhysicsName;
  /** Tests: wraps the strategy (to watch or act on its calls with the run's deps). */
  readonly wrap?: (strategy: Strategy, deps: StrategyDeps) => Strategy;
}

/** Steps in one simulated day (the `fromDay2` figures start here). */
export function stepsPerDay(world: World): number {
  return Math.round((24 * 3600) / world.stepSeconds);
}

/** Runs the whole scenario under one strategy. Deterministic in (world, strategy, seed, drs). */
export function simulateStrategy(opts: SimulateStrategyOptions): RunResult {
  const { world, seed } = opts;
  const { pods, nodes } = world;
  const stepS = world.stepSeconds;
  const stepMs = stepS * 1000;
  const state = new RunState(world);
  const ring = new ObservationRing(world, world.lagSteps);
  const day2 = stepsPerDay(world);
  const classes = podClassesOf(world, opts.policy.workloadClasses);
  const tallies = [
    new RunTally(world, 0, PRESSURE_TAINT_STEPS, classes),
    ...(world.steps > day2 ? [new RunTally(world, day2, PRESSURE_TAINT_STEPS, classes)] : []),
  ];
  const [all, fromDay2] = tallies as [RunTally, RunTally | undefined];
  let strategy: Strategy | undefined;
  const evictPod = (pod: number, step: number, restartSeconds: number): void => {
    if (state.podPhase[pod] !== PHASE_RUNNING) return;
    const node = state.podNode[pod]!;
    strategy!.unbound?.(pod, node);
    state.unbind(pod);
    state.enqueue(pod, step + Math.max(1, Math.ceil(restartSeconds / stepS)));
    for (const t of tallies) if (t.counts(step)) t.recordHvxEviction(pod, node);
  };
  const deps: StrategyDeps = { world, state, ring, rng: mulberry32(seed ^ 0x5eed5eed), evictPod };
  const physicsName = opts.physics ?? "overflow";
  strategy = STRATEGIES[opts.strategy](deps, {
    policy: opts.policy,
    hvx: opts.hvx ?? {},
    rebalance: opts.rebalance ?? simRebalancePolicyOf(parseConfig(undefined)),
    seed,
    physics: physicsName,
  });
  if (opts.wrap) strategy = opts.wrap(strategy, deps);
  const drs = new DrsRunner(world, opts.drs ?? world.scenario.drs);
  const usage = new UsageSeries(world, seed);
  const physics = new StepPhysics(world, physicsName);
  const arrivals = bucketBy(pods.count, (p) => pods.arriveStep[p]!, world.steps);
  const finishes: number[][] = [];
  const series = {
    maxHostReadyPercent: new Float32Array(world.steps),
    meanHostReadyPercent: new Float32Array(world.steps),
    cumulativeContendedPodSeconds: new Float64Array(world.steps),
    cumulativeSevereContendedPodSeconds: new Float64Array(world.steps),
  };
  const feasible: number[] = [];
  // A pod identical to one that just found no node (same workload and replica group, same
  // step and decision time, no binding since) finds none either: every input of every strategy is the same.
  const failedAt = new Map<string, { step: number; version: number; atMs: number }>();

  for (let s = 0; s < world.steps; s++) {
    if (s === fromDay2?.fromStep) fromDay2.start(state);
    applyMaintenance(world, state, s);
    const moved = drs.maybeBalance(state, s).length;
    for (const t of tallies) if (t.counts(s)) t.vmotions += moved;
    for (const p of finishes[s] ?? []) {
      if (state.podPhase[p] === PHASE_RUNNING && state.podStartStep[p]! + pods.lifetimeSteps[p]! === s) {
        strategy.unbound?.(p, state.podNode[p]!);
        state.unbind(p);
        state.podPhase[p] = PHASE_DONE;
      }
    }
    for (const p of arrivals[s] ?? []) state.enqueue(p, s);

    // scheduling: kube-scheduler's queue order is priority, then arrival in the queue
    const due: number[] = [];
    const waiting: number[] = [];
    for (const p of state.pending) (state.podNextTry[p]! <= s ? due : waiting).push(p);
    due.sort((a, b) => pods.priority[b]! - pods.priority[a]! || state.podQueueSeq[a]! - state.podQueueSeq[b]!);
    state.pending.length = 0;
    for (const p of waiting) state.pending.push(p);
    const stepStartMs = world.startMs + s * stepMs;
    let atMs = stepStartMs;
    for (const p of due) {
      // decisions happen at the step's start; a pod of a burst (arrival.ratePerSecond) not before it arrives
      if (pods.arriveStep[p] === s && world.scenario.workloads[pods.workload[p]!]!.arrival.ratePerSecond !== undefined) {
        atMs = Math.max(atMs, world.startMs + pods.arriveSecond[p]! * 1000);
      }
      const key = pods.owners[p]!;
      const failed = failedAt.get(key);
      let node = -1;
      if (failed === undefined || failed.step !== s || failed.version !== state.bindVersion || failed.atMs !== atMs) {
        feasible.length = 0;
        for (let n = 0; n < nodes.count; n++) if (state.fits(p, n, s)) feasible.push(n);
        node = feasible.length > 0 ? strategy.choose(p, feasible, s, atMs) : -1;
        if (node < 0) failedAt.set(key, { step: s, version: state.bindVersion, atMs });
      }
      if (node < 0) {
        for (const t of tallies) if (t.counts(s)) t.unschedulable++;
        state.podNextTry[p] = s + RETRY_STEPS;
        state.pending.push(p);
        continue;
      }
      state.bind(p, node, s);
      for (const t of tallies) if (t.counts(s)) t.bindings++;
      strategy.bound?.(p, node, s, atMs);
      if (pods.lifetimeSteps[p]! > 0) (finishes[s + pods.lifetimeSteps[p]!] ??= []).push(p);
    }

    usage.advance(s);
    const obs = ring.writable(s, world.startMs + (s + 1) * stepS * 1000);
    physics.run(state, usage, obs, s);
    drs.record(physics);
    strategy.observed?.(obs);

    let maxReady = 0;
    let sumReady = 0;
    let inService = 0;
    for (let h = 0; h < world.hosts.count; h++) {
      if (state.hostInMaintenance[h]) continue;
      const r = physics.hostReadyPercent[h]!;
      maxReady = Math.max(maxReady, r);
      sumReady += r;
      inService++;
    }
    series.maxHostReadyPercent[s] = maxReady;
    series.meanHostReadyPercent[s] = inService > 0 ? sumReady / inService : 0;
    for (const t of tallies) if (t.counts(s)) t.countStep(state, physics);
    series.cumulativeContendedPodSeconds[s] = all.contended;
    series.cumulativeSevereContendedPodSeconds[s] = all.severe;

    const evictedNow = evictUnderPressure(world, state, physics, strategy, s, PRESSURE_TAINT_STEPS);
    for (const t of tallies) if (t.counts(s)) t.recordEvictions(s, evictedNow);
    for (const p of strategy.evictAfterStep?.(s) ?? []) evictPod(p, s, world.scenario.restartSeconds);
  }

  return { strategy: opts.strategy, figures: all.figures(state), fromDay2: fromDay2?.figures(state), series };
}

interface StrategySetup {
  readonly policy: PlacementPolicy;
  readonly hvx: HvxStrategyOptions;
  readonly rebalance: SimRebalancePolicy;
  readonly seed: number;
  readonly physics: PhysicsName;
}

type StrategyFactory = (deps: StrategyDeps, setup: StrategySetup) => Strategy;

/** Every strategy of the report, by name (REPORT_STRATEGY_NAMES gives the order): add one entry to add one. */
const STRATEGIES: Readonly<Record<StrategyName, StrategyFactory>> = {
  default: (deps) => defaultStrategy(deps),
  "vm-load-aware": (deps) => vmLoadAwareStrategy(deps),
  hvx: (deps, { policy, hvx }) => hvxStrategy(deps, policy, hvx),
  "hvx+rebalance": (deps, { policy, hvx, rebalance }) => hvxRebalanceStrategy(deps, policy, rebalance, hvx),
  oracle: (deps, { seed, physics }) => oracleStrategy(deps, seed, physics),
};

function bucketBy(count: number, key: (i: number) => number, size: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < count; i++) {
    const k = key(i);
    if (k >= 0 && k < size) (out[k] ??= []).push(i);
  }
  return out;
}
