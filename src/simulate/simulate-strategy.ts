import type { PlacementPolicy } from "../placement/index.js";
import type { World } from "./build-world.js";
import { defaultStrategy } from "./default-strategy.js";
import { CascadeTracker, PercentHistogram, type RunResult } from "./figures.js";
import { hvxStrategy, type HvxStrategyOptions } from "./hvx-strategy.js";
import { evictUnderPressure } from "./evict-under-pressure.js";
import { ObservationRing } from "./observation-ring.js";
import { mulberry32 } from "../random/prng.js";
import { PHASE_DONE, PHASE_PENDING, PHASE_RUNNING, RunState } from "./run-state.js";
import { StepPhysics } from "./step-physics.js";
import type { Strategy, StrategyDeps, StrategyName } from "./strategy.js";
import { UsageSeries } from "./usage-series.js";
import { vmLoadAwareStrategy } from "./vm-load-aware-strategy.js";
import { applyMaintenance } from "./maintenance.js";

/** Pending pods that found no node are tried again after this many steps (60 s). */
export const RETRY_STEPS = 3;
/** kubelet's evictionPressureTransitionPeriod: the memory-pressure taint stays 5 min. */
export const PRESSURE_TAINT_STEPS = 15;
/** Contended: the pod's own node VM has CPU ready per vCPU at or above this ("worth watching"). */
export const CONTENDED_READY_PERCENT = 5;
/** Severely contended: at or above this (VMware's usual rule of thumb for a problem). */
export const SEVERE_READY_PERCENT = 10;

export interface SimulateStrategyOptions {
  readonly world: World;
  readonly strategy: StrategyName;
  readonly seed: number;
  readonly policy: PlacementPolicy;
  /** Options of the hvx strategy (tests: record decisions, drop the cluster view). */
  readonly hvx?: HvxStrategyOptions;
}

/** Runs the whole scenario under one strategy. Deterministic in (world, strategy, seed). */
export function simulateStrategy(opts: SimulateStrategyOptions): RunResult {
  const { world, seed } = opts;
  const { pods, nodes, vms } = world;
  const stepS = world.stepSeconds;
  const state = new RunState(world);
  const ring = new ObservationRing(world, world.lagSteps);
  const deps: StrategyDeps = { world, state, ring, rng: mulberry32(seed ^ 0x5eed5eed) };
  const strategy = makeStrategy(opts.strategy, deps, opts.policy, opts.hvx);
  const usage = new UsageSeries(world, seed);
  const physics = new StepPhysics(world);
  const arrivals = bucketBy(pods.count, (p) => pods.arriveStep[p]!, world.steps);
  const finishes: number[][] = [];
  const vmHist = new PercentHistogram();
  const hostHist = new PercentHistogram();
  const cascade = new CascadeTracker(PRESSURE_TAINT_STEPS);
  const series = {
    maxHostReadyPercent: new Float32Array(world.steps),
    meanHostReadyPercent: new Float32Array(world.steps),
    cumulativeContendedPodSeconds: new Float64Array(world.steps),
    cumulativeSevereContendedPodSeconds: new Float64Array(world.steps),
  };
  let contended = 0;
  let severe = 0;
  let hostContended = 0;
  let balloonGiBs = 0;
  let swapGiBs = 0;
  let evictions = 0;
  let bindings = 0;
  let unschedulable = 0;
  let utilSum = 0;
  let utilCount = 0;
  const feasible: number[] = [];
  // A pod identical to one that just found no node (same workload and replica group, same
  // step, no binding since) finds none either: every input of every strategy is the same.
  const failedAt = new Map<string, { step: number; version: number }>();

  for (let s = 0; s < world.steps; s++) {
    applyMaintenance(world, state, s);
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
    for (const p of due) {
      const key = pods.owners[p]!;
      const failed = failedAt.get(key);
      let node = -1;
      if (failed === undefined || failed.step !== s || failed.version !== state.bindVersion) {
        feasible.length = 0;
        for (let n = 0; n < nodes.count; n++) if (state.fits(p, n, s)) feasible.push(n);
        node = feasible.length > 0 ? strategy.choose(p, feasible, s) : -1;
        if (node < 0) failedAt.set(key, { step: s, version: state.bindVersion });
      }
      if (node < 0) {
        unschedulable++;
        state.podNextTry[p] = s + RETRY_STEPS;
        state.pending.push(p);
        continue;
      }
      state.bind(p, node, s);
      bindings++;
      strategy.bound?.(p, node, s);
      if (pods.lifetimeSteps[p]! > 0) (finishes[s + pods.lifetimeSteps[p]!] ??= []).push(p);
    }

    usage.advance(s);
    const obs = ring.writable(s, world.startMs + (s + 1) * stepS * 1000);
    physics.run(state, usage, obs);
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
      hostHist.add(r);
      utilSum += physics.hostCpuUtilPercent[h]!;
      utilCount++;
    }
    series.maxHostReadyPercent[s] = maxReady;
    series.meanHostReadyPercent[s] = inService > 0 ? sumReady / inService : 0;
    for (let n = 0; n < nodes.count; n++) {
      const r = physics.vmReadyPercent[n]!;
      vmHist.add(r);
      const podSeconds = state.nodePods[n]!.length * stepS;
      if (r >= CONTENDED_READY_PERCENT) contended += podSeconds;
      if (r >= SEVERE_READY_PERCENT) severe += podSeconds;
      if (r >= CONTENDED_READY_PERCENT || physics.hostReadyPercent[state.vmHost[n]!]! >= CONTENDED_READY_PERCENT) hostContended += podSeconds;
    }
    series.cumulativeContendedPodSeconds[s] = contended;
    series.cumulativeSevereContendedPodSeconds[s] = severe;
    let balloon = 0;
    let swapped = 0;
    for (let v = 0; v < vms.count; v++) {
      balloon += state.balloonMiB[v]!;
      swapped += state.swappedMiB[v]!;
    }
    balloonGiBs += (balloon / 1024) * stepS;
    swapGiBs += (swapped / 1024) * stepS;

    const evictedNow = evictUnderPressure(world, state, physics, strategy, s, PRESSURE_TAINT_STEPS);
    evictions += evictedNow;
    cascade.record(s, evictedNow);
  }

  let pending = 0;
  let placed = 0;
  let running = 0;
  let maxEvictions = 0;
  for (let p = 0; p < pods.count; p++) {
    if (state.podPhase[p] === PHASE_PENDING) pending++;
    if (state.podPhase[p] === PHASE_RUNNING) running++;
    placed += state.podEverPlaced[p]!;
    maxEvictions = Math.max(maxEvictions, state.podEvictions[p]!);
  }
  return {
    strategy: opts.strategy,
    figures: {
      contendedPodSeconds: contended,
      severeContendedPodSeconds: severe,
      hostContendedPodSeconds: hostContended,
      p99VmReadyPercent: vmHist.percentile(99),
      balloonGiBSeconds: balloonGiBs,
      swapGiBSeconds: swapGiBs,
      evictions,
      pendingPods: pending,
      placedPods: placed,
      meanHostCpuUtilPercent: utilCount > 0 ? utilSum / utilCount : 0,
      longestCascade: cascade.longest,
      maxEvictionsOfOnePod: maxEvictions,
      bindings,
      runningPodsAtEnd: running,
      p99HostReadyPercent: hostHist.percentile(99),
      unschedulableAttempts: unschedulable,
    },
    series,
  };
}

function makeStrategy(name: StrategyName, deps: StrategyDeps, policy: PlacementPolicy, hvx: HvxStrategyOptions = {}): Strategy {
  switch (name) {
    case "default":
      return defaultStrategy(deps);
    case "vm-load-aware":
      return vmLoadAwareStrategy(deps);
    case "hvx":
      return hvxStrategy(deps, policy, hvx);
  }
}

function bucketBy(count: number, key: (i: number) => number, size: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < count; i++) {
    const k = key(i);
    if (k >= 0 && k < size) (out[k] ??= []).push(i);
  }
  return out;
}
