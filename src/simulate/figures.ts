/** What one strategy run produced, per the figures (summary.json keys first). */
export interface StrategyFigures {
  /** Pod-seconds on a node VM whose own CPU ready per vCPU was >= 5 % in that step. */
  readonly contendedPodSeconds: number;
  /** The same at >= 10 % (VMware's usual rule of thumb for a problem). */
  readonly severeContendedPodSeconds: number;
  /** The earlier definition, for continuity: the node VM's or its host's ready % >= 5. */
  readonly hostContendedPodSeconds: number;
  /** Pod-seconds on a node VM whose guest was CPU-saturated (pods' CPU use + guest overhead >= its vCPUs). */
  readonly saturatedPodSeconds: number;
  /** Pod-seconds on a node VM that was contended (own ready >= 5 %) or saturated, each pod-step once. */
  readonly contendedOrSaturatedPodSeconds: number;
  /**
   * Contended pod-seconds of replicas of a workload whose replicas burst together
   * (`burst.correlated`) while their ESXi host carried another replica of it on another node
   * VM: the part that keeping those node VMs on different hosts (a VM-VM anti-affinity rule)
   * would address.
   */
  readonly correlatedCoHostedPodSeconds: number;
  /** p99 over all (node VM, step) samples of CPU ready % per vCPU. */
  readonly p99VmReadyPercent: number;
  /** Sum over steps of ballooned GiB on all VMs x 20 s. */
  readonly balloonGiBSeconds: number;
  readonly swapGiBSeconds: number;
  readonly evictions: number;
  /** Pods waiting to be placed when the run ends. */
  readonly pendingPods: number;
  /** Distinct pods bound at least once. */
  readonly placedPods: number;
  /** Mean over steps and in-service hosts of host CPU usage %. */
  readonly meanHostCpuUtilPercent: number;
  /** Most evictions in one cascade (evictions each within 5 min of the previous one). */
  readonly longestCascade: number;
  readonly maxEvictionsOfOnePod: number;
  /** Bindings, re-placements after eviction included. */
  readonly bindings: number;
  readonly runningPodsAtEnd: number;
  readonly p99HostReadyPercent: number;
  /** Placement attempts that found no node (feasibility or extender filter). */
  readonly unschedulableAttempts: number;
  /** DRS vMotions (maintenance evacuations not counted). */
  readonly vmotions: number;
  /** Pods hvx evicted (rebalancing); 0 for strategies that never evict. */
  readonly hvxEvictions: number;
  /**
   * The evicted pods' own contended pod-seconds that rebalancing removed: for each hvx
   * eviction, the steps the node VM it left stays contended (own ready >= 5 %) while the pod
   * is not contended where it is now (restarting, or on a calmer node). Its neighbours'
   * relief is not in it; the difference to `hvx`'s contended pod-seconds is the whole effect.
   */
  readonly rebalanceRemovedPodSeconds: number;
  /** Pod-hours run (sum over steps of running pods x step length). */
  readonly podHours: number;
  /** `contendedPodSeconds` of the online workload class's pods alone (`workloadClasses.*` of the run's configuration). */
  readonly onlineContendedPodSeconds: number;
  /** Pod-hours the online class's pods ran. */
  readonly onlinePodHours: number;
  /** Trace rows skipped (unparsable or zero capacity); a property of the scenario's input. */
  readonly skippedTraceRows: number;
}

/** Time series for the charts, one value per step. */
export interface RunSeries {
  readonly maxHostReadyPercent: Float32Array;
  readonly meanHostReadyPercent: Float32Array;
  readonly cumulativeContendedPodSeconds: Float64Array;
  readonly cumulativeSevereContendedPodSeconds: Float64Array;
}

export interface RunResult {
  readonly strategy: string;
  readonly figures: StrategyFigures;
  /** The same figures counted from the start of day 2 (undefined when the run is one day or shorter). */
  readonly fromDay2: StrategyFigures | undefined;
  readonly series: RunSeries;
}

/** Histogram of percentages in 0.01 % bins, for exact-enough, allocation-free percentiles. */
export class PercentHistogram {
  private readonly bins = new Float64Array(10_001);
  private total = 0;

  add(percent: number): void {
    const bin = Math.min(10_000, Math.max(0, Math.floor(percent * 100)));
    this.bins[bin] = this.bins[bin]! + 1;
    this.total++;
  }

  /** Nearest-rank percentile (p in 0..100), as the lower edge of its bin; 0 when empty. */
  percentile(p: number): number {
    if (this.total === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.total));
    let seen = 0;
    for (let i = 0; i < this.bins.length; i++) {
      seen += this.bins[i]!;
      if (seen >= rank) return i / 100;
    }
    return 100;
  }
}

/** Evictions within `gapSteps` of the previous one belong to the same cascade. */
export class CascadeTracker {
  private lastStep = -Infinity;
  private current = 0;
  longest = 0;

  constructor(private readonly gapSteps: number) {}

  record(step: number, evictions: number): void {
    if (evictions <= 0) return;
    this.current = step - this.lastStep <= this.gapSteps ? this.current + evictions : evictions;
    this.lastStep = step;
    if (this.current > this.longest) this.longest = this.current;
  }
}
