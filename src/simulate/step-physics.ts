import type { World } from "./build-world.js";
import { readyPercentPerVcpu } from "../model/derive-metrics.js";
import { CpuShareScratch, type HostCpuInputs, type HostCpuSharer } from "./host-sharing.js";
import { DEFAULT_RECLAIM, reclaimHostMemory } from "./memory-reclaim.js";
import type { Observation } from "./observation-ring.js";
import { HOST_CPU_SHARERS, type PhysicsName } from "./physics.js";
import type { RunState } from "./run-state.js";
import { noisyMemShare, type UsageSeries } from "./usage-series.js";

/**
 * One step of the infrastructure below Kubernetes: pod usage -> node VM demand ->
 * host CPU sharing (entitlement, run-queue waits) and memory reclamation -> the sample
 * vCenter would record.
 * Scratch arrays are allocated once; `run` allocates nothing per step.
 *
 *   node VM CPU demand (MHz) = min(vCPUs x MHz/core, (sum_pods min(usage, limit) + guest overhead) / 1000 x MHz/core)
 *   node VM memory demand    = min(configured, guest OS + sum_pods min(usage, limit))
 *   noisy VM CPU demand      = usage% / 100 x vCPUs x MHz/core;   memory = share x configured
 */
export class StepPhysics {
  readonly podMemMiB: Float64Array;
  readonly vmDemandMhz: Float64Array;
  readonly vmMemDemandMiB: Float64Array;
  readonly vmReadyPercent: Float64Array;
  readonly vmReadyMs: Float64Array;
  /** CPU the VM received this step, MHz. */
  readonly vmDeliveredMhz: Float64Array;
  readonly vmPodMemMiB: Float64Array;
  readonly hostReadyPercent: Float64Array;
  readonly hostCpuUtilPercent: Float64Array;
  /**
   * 1 when the node VM's guest is CPU-saturated this step: its pods' CPU use plus the guest
   * overhead reaches its vCPUs, so threads queue inside the guest, where ESXi's ready time
   * does not see them (per node VM; 0 for non-Kubernetes VMs).
   */
  readonly vmGuestSaturated: Uint8Array;
  private readonly vmPodCpuMilli: Float64Array;
  private readonly hostReadyMs: Float64Array;
  private readonly hostVcpus: Float64Array;
  private readonly cpuScratch = new CpuShareScratch();
  private hostVms: number[][] = [];
  private hostCpuInputs: HostCpuInputs[] = [];
  private placementVersion = -1;
  private readonly shareHostCpu: HostCpuSharer;

  constructor(
    private readonly world: World,
    physics: PhysicsName = "overflow",
  ) {
    this.shareHostCpu = HOST_CPU_SHARERS[physics];
    const V = world.vms.count;
    const H = world.hosts.count;
    this.podMemMiB = new Float64Array(world.pods.count);
    this.vmDemandMhz = new Float64Array(V);
    this.vmMemDemandMiB = new Float64Array(V);
    this.vmReadyPercent = new Float64Array(V);
    this.vmReadyMs = new Float64Array(V);
    this.vmDeliveredMhz = new Float64Array(V);
    this.vmPodMemMiB = new Float64Array(V);
    this.vmPodCpuMilli = new Float64Array(V);
    this.hostReadyPercent = new Float64Array(H);
    this.hostCpuUtilPercent = new Float64Array(H);
    this.vmGuestSaturated = new Uint8Array(V);
    this.hostReadyMs = new Float64Array(H);
    this.hostVcpus = new Float64Array(H);
  }

  /** Computes the step and writes its sample into `obs`. */
  run(state: RunState, usage: UsageSeries, obs: Observation, step: number): void {
    const { world } = this;
    const { vms, hosts, nodes, pods } = world;
    const nv = world.scenario.nodeVms;
    const intervalMs = world.stepSeconds * 1000;
    this.refreshHostVms(state);

    for (let n = 0; n < nodes.count; n++) {
      let cpu = 0;
      let mem = 0;
      for (const p of state.nodePods[n]!) {
        cpu += Math.min(usage.podCpuMilli(p), pods.limCpuMilli[p]!);
        const m = Math.min(usage.podMemMiB(p), pods.limMemMiB[p]!);
        this.podMemMiB[p] = m;
        mem += m;
      }
      this.vmPodCpuMilli[n] = cpu;
      this.vmPodMemMiB[n] = mem;
      const mhz = hosts.mhzPerCore[state.vmHost[n]!]!;
      const guestMilli = cpu + nv.guestCpuOverheadMilli;
      this.vmGuestSaturated[n] = guestMilli >= vms.vcpus[n]! * 1000 ? 1 : 0;
      this.vmDemandMhz[n] = Math.min(vms.vcpus[n]! * mhz, (guestMilli / 1000) * mhz);
      this.vmMemDemandMiB[n] = Math.min(vms.memoryMiB[n]!, nv.guestOsMiB + mem);
    }
    for (let v = nodes.count; v < vms.count; v++) {
      const mhz = hosts.mhzPerCore[state.vmHost[v]!]!;
      this.vmDemandMhz[v] = (usage.noisyCpuPercent(v - nodes.count) / 100) * vms.vcpus[v]! * mhz;
      this.vmMemDemandMiB[v] = noisyMemShare(world, v - nodes.count, step) * vms.memoryMiB[v]!;
    }

    this.hostReadyMs.fill(0);
    this.hostVcpus.fill(0);
    for (let h = 0; h < hosts.count; h++) {
      const inputs = this.hostCpuInputs[h]!;
      const delivered = this.shareHostCpu(inputs, intervalMs, this.cpuScratch, this.vmDeliveredMhz, this.vmReadyMs);
      this.hostCpuUtilPercent[h] = inputs.capacityMhz > 0 ? (delivered / inputs.capacityMhz) * 100 : 0;
    }
    for (let v = 0; v < vms.count; v++) {
      const h = state.vmHost[v]!;
      const ready = this.vmReadyMs[v]!;
      this.vmReadyPercent[v] = readyPercentPerVcpu(ready, intervalMs / 1000, vms.vcpus[v]!);
      this.hostReadyMs[h] = this.hostReadyMs[h]! + ready;
      this.hostVcpus[h] = this.hostVcpus[h]! + vms.vcpus[v]!;
      obs.vmHost[v] = h;
      // vCenter's aggregate instance is the sum of whole-ms per-vCPU instances
      obs.vmReadyMs[v] = Math.round(ready / vms.vcpus[v]!) * vms.vcpus[v]!;
      const capacityMhz = vms.vcpus[v]! * hosts.mhzPerCore[h]!;
      obs.vmUtilPercent[v] = capacityMhz > 0 ? (this.vmDeliveredMhz[v]! / capacityMhz) * 100 : 0;
    }
    for (let h = 0; h < hosts.count; h++) {
      this.hostReadyPercent[h] = readyPercentPerVcpu(this.hostReadyMs[h]!, intervalMs / 1000, this.hostVcpus[h]!);
      const r = reclaimHostMemory(
        hosts.memoryMiB[h]!,
        this.hostVms[h]!,
        this.vmMemDemandMiB,
        vms.memoryMiB,
        vms.reservationMiB,
        state.balloonMiB,
        state.swappedMiB,
        DEFAULT_RECLAIM,
      );
      let balloon = 0;
      for (const v of this.hostVms[h]!) balloon += state.balloonMiB[v]!;
      obs.hostCpuUsageFixed[h] = Math.round(this.hostCpuUtilPercent[h]! * 100);
      obs.hostMemUsageFixed[h] = Math.round(Math.min(100, (r.consumedMiB / hosts.memoryMiB[h]!) * 100) * 100);
      obs.hostBalloonKB[h] = Math.round(balloon * 1024);
      obs.hostSwapInKBps[h] = Math.round((r.swapInMiB * 1024) / world.stepSeconds);
      obs.hostMemState[h] = r.state;
      obs.hostInMaintenance[h] = state.hostInMaintenance[h]!;
    }
    for (let v = 0; v < vms.count; v++) {
      obs.vmBalloonKB[v] = Math.round(state.balloonMiB[v]! * 1024);
      obs.vmSwappedKB[v] = Math.round(state.swappedMiB[v]! * 1024);
    }
  }

  /** VMs per host and their CPU-sharing inputs; rebuilt only when a VM moved. */
  private refreshHostVms(state: RunState): void {
    if (state.placementVersion === this.placementVersion) return;
    this.placementVersion = state.placementVersion;
    this.hostVms = Array.from({ length: this.world.hosts.count }, () => []);
    for (let v = 0; v < this.world.vms.count; v++) this.hostVms[state.vmHost[v]!]!.push(v);
    const { hosts, vms } = this.world;
    this.hostCpuInputs = this.hostVms.map((onHost, h) => ({
      capacityMhz: hosts.cores[h]! * hosts.mhzPerCore[h]!,
      mhzPerCore: hosts.mhzPerCore[h]!,
      cores: hosts.cores[h]!,
      numaNodes: hosts.numaNodes[h]!,
      vms: onHost,
      vcpus: vms.vcpus,
      demandMhz: this.vmDemandMhz,
      shares: vms.cpuShares,
      reservationMhz: vms.cpuReservationMhz,
      limitMhz: vms.cpuLimitMhz,
    }));
  }
}
