import type { World } from "./build-world.js";
import { hash01, hashNormal } from "../random/prng.js";
import { isTracedCpu, type UsageSpec } from "./scenario.js";

/** The memory wave's peak hour of a workload whose CPU comes from a trace (the schema's default). */
const TRACED_MEMORY_PEAK_HOUR = 14;

const KIND_POD = 0x1001;
const KIND_WORKLOAD = 0x2002;
const KIND_NOISY = 0x3003;
const SALT_CPU = 0x51;
const SALT_MEM = 0x52;
const SALT_BURST = 0x53;

/**
 * Seeded usage series for pods (CPU millicores, memory MiB) and noisy VMs (CPU %).
 * Values depend only on (seed, entity, step): every strategy run sees the same
 * workload. Burst state is the only memory; it advances for every entity at every
 * step whether the pod runs or not, so it cannot depend on placement.
 *
 *   cpu(t)  = max(0, base(t) x (1 + cv x N(t)))   base(t) = mean x (1 + A cos(2 pi (hour(t) - peakHour) / 24))
 *             and while bursting: max(base(t), peak) x (1 + cv x N(t))
 *   mem(t)  = max(0, meanMiB x (1 + A cos(...)) x (1 + cv x U(t)) + burstMiB while bursting)
 * N is an (approximately) standard normal draw, U a unit-variance uniform draw.
 */
export class UsageSeries {
  private readonly podBurst: Int32Array;
  private readonly workloadBurst: Int32Array;
  private readonly noisyBurst: Int32Array;
  private readonly workloadCpuDiurnal: Float64Array;
  private readonly workloadMemDiurnal: Float64Array;
  private readonly noisyDiurnal: Float64Array;
  private step = -1;

  constructor(
    private readonly world: World,
    private readonly seed: number,
  ) {
    this.podBurst = new Int32Array(world.pods.count);
    this.workloadBurst = new Int32Array(world.scenario.workloads.length);
    this.noisyBurst = new Int32Array(world.noisyCpu.length);
    this.workloadCpuDiurnal = new Float64Array(world.scenario.workloads.length);
    this.workloadMemDiurnal = new Float64Array(world.scenario.workloads.length);
    this.noisyDiurnal = new Float64Array(world.noisyCpu.length);
  }

  /** Moves every burst state to `step` (must be called once per step, in order). */
  advance(step: number): void {
    if (step !== this.step + 1) throw new Error(`usage series advanced from ${this.step} to ${step}`);
    this.step = step;
    const hour = ((step * this.world.stepSeconds) / 3600) % 24;
    const workloads = this.world.scenario.workloads;
    const stepS = this.world.stepSeconds;
    workloads.forEach((w, i) => {
      const cpu = w.cpu;
      const peakHour = isTracedCpu(cpu) ? TRACED_MEMORY_PEAK_HOUR : cpu.diurnalPeakHour;
      this.workloadMemDiurnal[i] = 1 + w.memory.diurnalAmplitude * Math.cos((2 * Math.PI * (hour - peakHour)) / 24);
      if (isTracedCpu(cpu)) return;
      this.workloadCpuDiurnal[i] = diurnal(cpu, hour);
      if (cpu.burst?.correlated) advanceBurst(this.workloadBurst, i, cpu, this.seed ^ KIND_WORKLOAD, step, stepS);
    });
    const pw = this.world.pods.workload;
    for (let p = 0; p < this.world.pods.count; p++) {
      const spec = workloads[pw[p]!]!.cpu;
      if (!isTracedCpu(spec) && spec.burst !== undefined && !spec.burst.correlated)
        advanceBurst(this.podBurst, p, spec, this.seed ^ KIND_POD, step, stepS);
    }
    this.world.noisyCpu.forEach((spec, i) => {
      if (spec === undefined) return;
      this.noisyDiurnal[i] = diurnal(spec, hour);
      if (spec.burst !== undefined) advanceBurst(this.noisyBurst, i, spec, this.seed ^ KIND_NOISY, step, stepS);
    });
  }

  private podBursting(p: number, w: number): boolean {
    const cpu = this.world.scenario.workloads[w]!.cpu;
    if (isTracedCpu(cpu)) return false;
    return cpu.burst?.correlated ? this.workloadBurst[w]! > 0 : this.podBurst[p]! > 0;
  }

  /** CPU usage of pod p at the current step, millicores (before limits). */
  podCpuMilli(p: number): number {
    const w = this.world.pods.workload[p]!;
    const spec = this.world.scenario.workloads[w]!.cpu;
    // a traced replica: CPU usage [%] / 100 x traceScaleMilli
    if (isTracedCpu(spec)) return (this.world.podTrace[p]!.cpuPercent[this.step]! / 100) * spec.traceScaleMilli;
    let base = spec.mean * this.workloadCpuDiurnal[w]!;
    if (spec.burst !== undefined && this.podBursting(p, w)) base = Math.max(base, spec.burst.peak);
    return Math.max(0, base * (1 + spec.noiseCv * hashNormal(this.seed ^ KIND_POD, p, this.step * 4 + SALT_CPU)));
  }

  /** Memory usage of pod p at the current step, MiB (before limits). */
  podMemMiB(p: number): number {
    const w = this.world.pods.workload[p]!;
    const wl = this.world.scenario.workloads[w]!;
    const u = (hash01(this.seed ^ KIND_POD, p, this.step * 4 + SALT_MEM) - 0.5) * Math.sqrt(12);
    const burst = wl.memory.burstMiB > 0 && this.podBursting(p, w) ? wl.memory.burstMiB : 0;
    return Math.max(0, wl.memory.meanMiB * this.workloadMemDiurnal[w]! * (1 + wl.memory.noiseCv * u) + burst);
  }

  /** CPU usage of noisy VM i (0-based among noisy VMs) at the current step, percent of its vCPUs, 0..100. */
  noisyCpuPercent(i: number): number {
    const trace = this.world.noisyTrace[i];
    if (trace !== undefined) return trace.cpuPercent[this.step]!;
    const spec = this.world.noisyCpu[i]!;
    let base = spec.mean * this.noisyDiurnal[i]!;
    if (spec.burst !== undefined && this.noisyBurst[i]! > 0) base = Math.max(base, spec.burst.peak);
    return Math.min(100, Math.max(0, base * (1 + spec.noiseCv * hashNormal(this.seed ^ KIND_NOISY, i, this.step * 4 + SALT_CPU))));
  }
}

/** Share of noisy VM i's memory its guest touches now: the trace's, else the scenario's fixed share. */
export function noisyMemShare(world: World, i: number, step: number): number {
  const trace = world.noisyTrace[i];
  return trace !== undefined ? trace.memShare[step]! : world.vms.memoryShare[world.nodes.count + i]!;
}

/** 1 + A cos(2 pi (hour - peakHour) / 24). */
function diurnal(spec: UsageSpec, hour: number): number {
  return 1 + spec.diurnalAmplitude * Math.cos((2 * Math.PI * (hour - spec.diurnalPeakHour)) / 24);
}

/**
 * Burst state: remaining steps. While idle, a burst starts with probability
 * perHour x stepSeconds / 3600 per step and lasts round(minutes x 60 / stepSeconds) steps.
 */
function advanceBurst(state: Int32Array, i: number, spec: UsageSpec, key: number, step: number, stepS: number): void {
  const b = spec.burst!;
  if (state[i]! > 0) {
    state[i] = state[i]! - 1;
    return;
  }
  if (hash01(key, i, step * 4 + SALT_BURST) < (b.perHour * stepS) / 3600) state[i] = Math.max(1, Math.round((b.minutes * 60) / stepS));
}
