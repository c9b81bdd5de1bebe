import type { WorkloadClass } from "../model/cluster.js";
import type { World } from "./build-world.js";
import { CascadeTracker, PercentHistogram, type StrategyFigures } from "./figures.js";
import { PHASE_PENDING, PHASE_RUNNING, type RunState } from "./run-state.js";
import type { StepPhysics } from "./step-physics.js";
import { CoHostedReplicas } from "./co-hosted-replicas.js";

/** Contended: the pod's own node VM has CPU ready per vCPU at or above this ("worth watching"). */
export const CONTENDED_READY_PERCENT = 5;
/** Severely contended: at or above this (VMware's usual rule of thumb for a problem). */
export const SEVERE_READY_PERCENT = 10;

/**
 * The figures of one run counted from `fromStep` on (0: the whole run; one day: from day 2).
 * Events before `fromStep` are ignored; end-of-run figures (pending, running) are the same
 * for every tally.
 */
export class RunTally {
  contended = 0;
  severe = 0;
  hostContended = 0;
  saturated = 0;
  contendedOrSaturated = 0;
  correlatedCoHosted = 0;
  balloonGiBs = 0;
  swapGiBs = 0;
  evictions = 0;
  bindings = 0;
  unschedulable = 0;
  vmotions = 0;
  hvxEvictions = 0;
  rebalanceRemoved = 0;
  podSeconds = 0;
  onlineContended = 0;
  onlinePodSeconds = 0;
  private utilSum = 0;
  private utilCount = 0;
  private readonly vmHist = new PercentHistogram();
  private readonly hostHist = new PercentHistogram();
  private readonly cascade: CascadeTracker;
  private evictionsBefore: Int32Array | undefined;
  /** Pods hvx evicted, by the node VM they left, while that VM stays contended. */
  private readonly leftContended = new Map<number, number>();
  private readonly anyOnline: boolean;
  private readonly coHosted: CoHostedReplicas | undefined;

  constructor(
    private readonly world: World,
    readonly fromStep: number,
    cascadeGapSteps: number,
    /** Each pod's workload class (`podClassesOf`), for the online class's own figures; absent: none has one. */
    private readonly classes: ReadonlyArray<WorkloadClass | undefined> = [],
  ) {
    this.cascade = new CascadeTracker(cascadeGapSteps);
    this.anyOnline = classes.includes("online");
    this.coHosted = CoHostedReplicas.of(world);
  }

  counts(step: number): boolean {
    return step >= this.fromStep;
  }

  /** Per-pod eviction counts at the start of the window (for the most evictions of one pod). */
  start(state: RunState): void {
    this.evictionsBefore = state.podEvictions.slice();
  }

  /** The step's host, VM and memory figures (after the physics and before kubelet evicts). */
  countStep(state: RunState, physics: StepPhysics): void {
    const { world } = this;
    const stepS = world.stepSeconds;
    for (let h = 0; h < world.hosts.count; h++) {
      if (state.hostInMaintenance[h]) continue;
      this.hostHist.add(physics.hostReadyPercent[h]!);
      this.utilSum += physics.hostCpuUtilPercent[h]!;
      this.utilCount++;
    }
    for (let n = 0; n < world.nodes.count; n++) {
      const r = physics.vmReadyPercent[n]!;
      this.vmHist.add(r);
      const podSeconds = state.nodePods[n]!.length * stepS;
      this.podSeconds += podSeconds;
      const onlineSeconds = this.onlinePodsOn(state.nodePods[n]!) * stepS;
      this.onlinePodSeconds += onlineSeconds;
      if (r >= CONTENDED_READY_PERCENT) {
        this.contended += podSeconds;
        this.onlineContended += onlineSeconds;
      }
      if (r >= SEVERE_READY_PERCENT) this.severe += podSeconds;
      const saturated = physics.vmGuestSaturated[n] === 1;
      if (saturated) this.saturated += podSeconds;
      if (saturated || r >= CONTENDED_READY_PERCENT) this.contendedOrSaturated += podSeconds;
      if (r >= CONTENDED_READY_PERCENT || physics.hostReadyPercent[state.vmHost[n]!]! >= CONTENDED_READY_PERCENT)
        this.hostContended += podSeconds;
    }
    if (this.coHosted)
      this.correlatedCoHosted += this.coHosted.contendedPodSeconds(state, physics.vmReadyPercent, CONTENDED_READY_PERCENT, stepS);
    for (const [pod, left] of this.leftContended) {
      if (physics.vmReadyPercent[left]! < CONTENDED_READY_PERCENT) {
        this.leftContended.delete(pod);
        continue;
      }
      const now = state.podNode[pod]!;
      const contendedNow = now >= 0 && physics.vmReadyPercent[now]! >= CONTENDED_READY_PERCENT;
      if (!contendedNow) this.rebalanceRemoved += stepS;
    }
    let balloon = 0;
    let swapped = 0;
    for (let v = 0; v < world.vms.count; v++) {
      balloon += state.balloonMiB[v]!;
      swapped += state.swappedMiB[v]!;
    }
    this.balloonGiBs += (balloon / 1024) * stepS;
    this.swapGiBs += (swapped / 1024) * stepS;
  }

  private onlinePodsOn(pods: readonly number[]): number {
    if (!this.anyOnline) return 0;
    let n = 0;
    for (const p of pods) if (this.classes[p] === "online") n++;
    return n;
  }

  /** hvx evicted `pod` off `node` (rebalancing). */
  recordHvxEviction(pod: number, node: number): void {
    this.hvxEvictions++;
    this.leftContended.set(pod, node);
  }

  recordEvictions(step: number, evicted: number): void {
    this.evictions += evicted;
    this.cascade.record(step, evicted);
  }

  figures(state: RunState): StrategyFigures {
    const { pods } = this.world;
    let pending = 0;
    let placed = 0;
    let running = 0;
    let maxEvictions = 0;
    for (let p = 0; p < pods.count; p++) {
      if (state.podPhase[p] === PHASE_PENDING) pending++;
      if (state.podPhase[p] === PHASE_RUNNING) running++;
      if (state.podEverPlaced[p]! && state.podBoundStep[p]! >= this.fromStep) placed++;
      maxEvictions = Math.max(maxEvictions, state.podEvictions[p]! - (this.evictionsBefore?.[p] ?? 0));
    }
    return {
      contendedPodSeconds: this.contended,
      severeContendedPodSeconds: this.severe,
      hostContendedPodSeconds: this.hostContended,
      saturatedPodSeconds: this.saturated,
      contendedOrSaturatedPodSeconds: this.contendedOrSaturated,
      correlatedCoHostedPodSeconds: this.correlatedCoHosted,
      p99VmReadyPercent: this.vmHist.percentile(99),
      balloonGiBSeconds: this.balloonGiBs,
      swapGiBSeconds: this.swapGiBs,
      evictions: this.evictions,
      pendingPods: pending,
      placedPods: placed,
      meanHostCpuUtilPercent: this.utilCount > 0 ? this.utilSum / this.utilCount : 0,
      longestCascade: this.cascade.longest,
      maxEvictionsOfOnePod: maxEvictions,
      bindings: this.bindings,
      runningPodsAtEnd: running,
      p99HostReadyPercent: this.hostHist.percentile(99),
      unschedulableAttempts: this.unschedulable,
      vmotions: this.vmotions,
      hvxEvictions: this.hvxEvictions,
      rebalanceRemovedPodSeconds: this.rebalanceRemoved,
      podHours: this.podSeconds / 3600,
      onlineContendedPodSeconds: this.onlineContended,
      onlinePodHours: this.onlinePodSeconds / 3600,
      skippedTraceRows: this.world.skippedTraceRows,
    };
  }
}
