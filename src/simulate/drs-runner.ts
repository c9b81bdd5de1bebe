import type { World } from "./build-world.js";
import { drsPass, type DrsFilters, type DrsMove } from "./drs-balance.js";
import { drsVmScorePass } from "./drs-vm-score.js";
import { minFreeMiB } from "./memory-reclaim.js";
import type { RunState } from "./run-state.js";
import { drsIntervalMinutes, type DrsSettings } from "./scenario.js";
import type { StepPhysics } from "./step-physics.js";

/**
 * DRS in a run: sums each VM's CPU and memory demand over the interval and, at every
 * interval boundary, runs one pass on the averages (drs-balance.ts) and applies its
 * vMotions. A moved node VM carries its pods, balloon and swap with it; hvx sees the new
 * host in the next sample (the sample records where each VM ran).
 */
export class DrsRunner {
  private readonly sumCpuMhz: Float64Array;
  private readonly sumMemMiB: Float64Array;
  private readonly avgCpuMhz: Float64Array;
  private readonly avgMemMiB: Float64Array;
  private readonly sumReadyPercent: Float64Array;
  private readonly avgReadyPercent: Float64Array;
  private readonly filters: DrsFilters;
  private readonly hostCpuMhz: Float64Array;
  private readonly hostUsableMemMiB: Float64Array;
  private samples = 0;
  readonly intervalSteps: number;

  constructor(
    private readonly world: World,
    private readonly settings: DrsSettings,
  ) {
    const V = world.vms.count;
    this.sumCpuMhz = new Float64Array(V);
    this.sumMemMiB = new Float64Array(V);
    this.avgCpuMhz = new Float64Array(V);
    this.avgMemMiB = new Float64Array(V);
    this.sumReadyPercent = new Float64Array(V);
    this.avgReadyPercent = new Float64Array(V);
    const { hosts } = world;
    this.hostCpuMhz = Float64Array.from({ length: hosts.count }, (_, h) => hosts.cores[h]! * hosts.mhzPerCore[h]!);
    // a host has memory for a VM while its VMs' demand stays above ESXi's minFree (memory state high or clear)
    this.hostUsableMemMiB = Float64Array.from({ length: hosts.count }, (_, h) => hosts.memoryMiB[h]! - minFreeMiB(hosts.memoryMiB[h]!));
    this.intervalSteps = Math.max(1, Math.round((drsIntervalMinutes(settings) * 60) / world.stepSeconds));
    this.filters = {
      hostMhzPerCore: hosts.mhzPerCore,
      maxMovesPerHost: settings.maxMovesPerHostPerPass,
      minGoodness: settings.minGoodness,
      costBenefit: settings.costBenefit,
      vmotionMiBPerSecond: settings.vmotionMiBPerSecond,
      intervalSeconds: this.intervalSteps * world.stepSeconds,
    };
  }

  /** Adds the step's demand (after the physics ran). */
  record(physics: StepPhysics): void {
    const V = this.world.vms.count;
    for (let v = 0; v < V; v++) {
      this.sumCpuMhz[v] = this.sumCpuMhz[v]! + Math.min(physics.vmDemandMhz[v]!, this.world.vms.cpuLimitMhz[v]!);
      this.sumMemMiB[v] = this.sumMemMiB[v]! + physics.vmMemDemandMiB[v]!;
      this.sumReadyPercent[v] = this.sumReadyPercent[v]! + physics.vmReadyPercent[v]!;
    }
    this.samples++;
  }

  /** At an interval boundary, one pass; returns the vMotions made (none elsewhere). */
  maybeBalance(state: RunState, step: number): readonly DrsMove[] {
    if (!this.settings.enabled || step === 0 || step % this.intervalSteps !== 0 || this.samples === 0) return [];
    const V = this.world.vms.count;
    for (let v = 0; v < V; v++) {
      this.avgCpuMhz[v] = this.sumCpuMhz[v]! / this.samples;
      this.avgMemMiB[v] = this.sumMemMiB[v]! / this.samples;
      this.avgReadyPercent[v] = this.sumReadyPercent[v]! / this.samples;
    }
    this.sumCpuMhz.fill(0);
    this.sumMemMiB.fill(0);
    this.sumReadyPercent.fill(0);
    this.samples = 0;
    const common = {
      hostCpuMhz: this.hostCpuMhz,
      hostUsableMemMiB: this.hostUsableMemMiB,
      hostInMaintenance: state.hostInMaintenance,
      vmHost: state.vmHost,
      vmCpuMhz: this.avgCpuMhz,
      vmMemMiB: this.avgMemMiB,
      migrationThreshold: this.settings.migrationThreshold,
      filters: this.filters,
    };
    const moves =
      this.settings.model === "vm-score"
        ? drsVmScorePass({
            ...common,
            vmVcpus: this.world.vms.vcpus,
            vmReadyPercent: this.avgReadyPercent,
            vmReadyThresholdPercent: this.settings.vmReadyPercent,
          })
        : drsPass(common);
    for (const m of moves) state.moveVm(m.vm, m.to);
    return moves;
  }
}
