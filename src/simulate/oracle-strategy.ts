import type { World } from "./build-world.js";
import { DefaultProfile } from "./default-strategy.js";
import { FutureLoad } from "./future-load.js";
import { CpuShareScratch, type HostCpuInputs, type HostCpuSharer } from "./host-sharing.js";
import { HOST_CPU_SHARERS, type PhysicsName } from "./physics.js";
import { CONTENDED_READY_PERCENT } from "./run-tally.js";
import { selectHost, type Strategy, type StrategyDeps } from "./strategy.js";

/** The oracle looks at every third step (one minute): its cost estimate, not the run's physics. */
export const ORACLE_SAMPLE_STEPS = 3;

/**
 * `oracle`: a clairvoyant reference, not a scheduler (docs/simulation.md section 7). It knows
 * every pod's and non-Kubernetes VM's CPU use for the rest of the run (FutureLoad) and places
 * each pod, greedily in the queue's order, on the feasible node that adds the least contention
 * over the pod's lifetime (its `lifetimeMinutes`, else to the end of the run):
 *
 *   cost(n) = sum over samples t of the pod's lifetime of
 *             contended_pods(host of n, t, with the pod on n) - contended_pods(host of n, t, without it)
 *
 * where a pod counts as contended when its node VM's own ready per vCPU is >= 5 % or its guest
 * is CPU-saturated, computed with the run's physics on the pods the oracle has placed (and not
 * seen leave). Among the cheapest nodes kube-scheduler's default profile picks. It assumes VMs
 * stay on their hosts (it does not foresee DRS) and that pods run their full lifetime.
 */
export function oracleStrategy(deps: StrategyDeps, seed: number, physics: PhysicsName): Strategy {
  const oracle = new OracleTimeline(deps.world, deps, seed, HOST_CPU_SHARERS[physics]);
  const profile = new DefaultProfile(deps);
  const cheapest: number[] = [];
  return {
    name: "oracle",
    choose(pod, feasible, step) {
      oracle.now = step;
      cheapest.length = 0;
      let best = Infinity;
      for (const n of feasible) {
        const cost = oracle.addedContention(pod, n, step);
        if (cost < best) {
          best = cost;
          cheapest.length = 0;
        }
        if (cost === best) cheapest.push(n);
      }
      return selectHost(cheapest, profile.scores(pod, cheapest), deps.rng);
    },
    bound(pod, node, step) {
      oracle.now = step;
      oracle.add(pod, node, step);
    },
    unbound(pod, node) {
      oracle.remove(pod, node);
    },
    observed(obs) {
      // after a step's physics, the next change (kubelet eviction, a finished pod) counts from the next step
      oracle.now = obs.step + 1;
    },
  };
}

/** The oracle's picture of the future: per node VM and sample, its pods' CPU and count; per host and sample, its contention. */
class OracleTimeline {
  now = 0;
  private readonly future: FutureLoad;
  private readonly S: number;
  private readonly nodeMilli: Float64Array;
  private readonly nodePods: Int32Array;
  /** Contended pods per host and sample with the current picture; NaN: to compute. */
  private readonly baseline: Float64Array;
  private readonly podEndSample: Int32Array;
  private readonly demandMhz: Float64Array;
  private readonly deliveredMhz: Float64Array;
  private readonly readyMs: Float64Array;
  private readonly scratch = new CpuShareScratch();
  private hostInputs: HostCpuInputs[] = [];
  private placementVersion = -1;
  private readonly intervalMs: number;

  constructor(
    private readonly world: World,
    private readonly deps: StrategyDeps,
    seed: number,
    private readonly share: HostCpuSharer,
  ) {
    this.future = new FutureLoad(world, seed, ORACLE_SAMPLE_STEPS);
    this.S = this.future.samples;
    this.nodeMilli = new Float64Array(world.nodes.count * this.S);
    this.nodePods = new Int32Array(world.nodes.count * this.S);
    this.baseline = new Float64Array(world.hosts.count * this.S).fill(NaN);
    this.podEndSample = new Int32Array(world.pods.count);
    this.demandMhz = new Float64Array(world.vms.count);
    this.deliveredMhz = new Float64Array(world.vms.count);
    this.readyMs = new Float64Array(world.vms.count);
    this.intervalMs = world.stepSeconds * 1000;
  }

  /** The samples a pod bound at `step` runs for: [first, end). */
  private lifetime(pod: number, step: number): [number, number] {
    const life = this.world.pods.lifetimeSteps[pod]!;
    const endStep = life > 0 ? Math.min(this.world.steps, step + life) : this.world.steps;
    return [this.future.sampleAtOrAfter(step), this.future.sampleAtOrAfter(endStep)];
  }

  addedContention(pod: number, node: number, step: number): number {
    this.refreshHosts();
    const h = this.deps.state.vmHost[node]!;
    const [from, to] = this.lifetime(pod, step);
    let cost = 0;
    for (let t = from; t < to; t++) {
      cost += this.contended(h, t, node, this.future.podCpuMilli[pod * this.S + t]!) - this.baselineAt(h, t);
    }
    return cost;
  }

  add(pod: number, node: number, step: number): void {
    const [from, to] = this.lifetime(pod, step);
    this.podEndSample[pod] = to;
    this.change(pod, node, from, to, 1);
  }

  remove(pod: number, node: number): void {
    const from = this.future.sampleAtOrAfter(this.now);
    this.change(pod, node, from, this.podEndSample[pod]!, -1);
  }

  private change(pod: number, node: number, from: number, to: number, sign: 1 | -1): void {
    const { S } = this;
    for (let t = from; t < to; t++) {
      this.nodeMilli[node * S + t] = this.nodeMilli[node * S + t]! + sign * this.future.podCpuMilli[pod * S + t]!;
      this.nodePods[node * S + t] = this.nodePods[node * S + t]! + sign;
    }
    const h = this.deps.state.vmHost[node]!;
    this.baseline.fill(NaN, h * S + from, h * S + Math.max(from, to));
  }

  private baselineAt(h: number, t: number): number {
    const k = h * this.S + t;
    let b = this.baseline[k]!;
    if (Number.isNaN(b)) {
      b = this.contended(h, t, -1, 0);
      this.baseline[k] = b;
    }
    return b;
  }

  /** Contended or saturated pods on host h at sample t, with `extraMilli` and one more pod on `extraNode` (-1: none). */
  private contended(h: number, t: number, extraNode: number, extraMilli: number): number {
    const { world, S } = this;
    const { vms, nodes, hosts } = world;
    const overhead = world.scenario.nodeVms.guestCpuOverheadMilli;
    const mhz = hosts.mhzPerCore[h]!;
    const inputs = this.hostInputs[h]!;
    for (const v of inputs.vms) {
      if (v < nodes.count) {
        const milli = this.nodeMilli[v * S + t]! + (v === extraNode ? extraMilli : 0) + overhead;
        this.demandMhz[v] = Math.min(vms.vcpus[v]! * mhz, (milli / 1000) * mhz);
      } else {
        this.demandMhz[v] = (this.future.noisyCpuPercent[(v - nodes.count) * S + t]! / 100) * vms.vcpus[v]! * mhz;
      }
    }
    this.share(inputs, this.intervalMs, this.scratch, this.deliveredMhz, this.readyMs);
    let count = 0;
    for (const v of inputs.vms) {
      if (v >= nodes.count) continue;
      const pods = this.nodePods[v * S + t]! + (v === extraNode ? 1 : 0);
      if (pods === 0) continue;
      const readyPercent = (this.readyMs[v]! / (this.intervalMs * vms.vcpus[v]!)) * 100;
      const guestMilli = this.nodeMilli[v * S + t]! + (v === extraNode ? extraMilli : 0) + overhead;
      if (readyPercent >= CONTENDED_READY_PERCENT || guestMilli >= vms.vcpus[v]! * 1000) count += pods;
    }
    return count;
  }

  /** Host VM lists and sharing inputs; rebuilt (and every cached contention dropped) when a VM moved. */
  private refreshHosts(): void {
    const { state } = this.deps;
    if (state.placementVersion === this.placementVersion) return;
    this.placementVersion = state.placementVersion;
    this.baseline.fill(NaN);
    const { hosts, vms } = this.world;
    const onHost: number[][] = Array.from({ length: hosts.count }, () => []);
    for (let v = 0; v < vms.count; v++) onHost[state.vmHost[v]!]!.push(v);
    this.hostInputs = onHost.map((list, h) => ({
      capacityMhz: hosts.cores[h]! * hosts.mhzPerCore[h]!,
      mhzPerCore: hosts.mhzPerCore[h]!,
      cores: hosts.cores[h]!,
      numaNodes: hosts.numaNodes[h]!,
      vms: list,
      vcpus: vms.vcpus,
      demandMhz: this.demandMhz,
      shares: vms.cpuShares,
      reservationMhz: vms.cpuReservationMhz,
      limitMhz: vms.cpuLimitMhz,
    }));
  }
}
