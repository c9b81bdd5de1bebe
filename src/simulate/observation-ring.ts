import type { World } from "./build-world.js";

/**
 * One 20 s performance sample of every host and VM, in the units vCenter reports:
 * cpu.ready.summation (ms per sample, over all vCPUs), cpu.usage.average and
 * mem.usage.average (percent x100, integers), mem.vmmemctl.average and
 * mem.swapped.average (KB), mem.swapinRate.average (KB/s), mem.state.latest (0..4).
 */
export interface Observation {
  step: number;
  /** End of the sample interval (vCenter stamps samples at the end), epoch ms. */
  sampledAtMs: number;
  readonly vmHost: Int32Array;
  readonly vmReadyMs: Float64Array;
  readonly vmBalloonKB: Float64Array;
  readonly vmSwappedKB: Float64Array;
  /** The guest's own CPU utilisation, percent of its vCPUs (what a node exporter sees). */
  readonly vmUtilPercent: Float64Array;
  readonly hostCpuUsageFixed: Int32Array;
  readonly hostMemUsageFixed: Int32Array;
  readonly hostBalloonKB: Float64Array;
  readonly hostSwapInKBps: Float64Array;
  readonly hostMemState: Int32Array;
  readonly hostInMaintenance: Uint8Array;
}

/** A detached copy (the ring reuses its slots). */
export function copyObservation(o: Observation): Observation {
  return {
    step: o.step,
    sampledAtMs: o.sampledAtMs,
    vmHost: o.vmHost.slice(),
    vmReadyMs: o.vmReadyMs.slice(),
    vmBalloonKB: o.vmBalloonKB.slice(),
    vmSwappedKB: o.vmSwappedKB.slice(),
    vmUtilPercent: o.vmUtilPercent.slice(),
    hostCpuUsageFixed: o.hostCpuUsageFixed.slice(),
    hostMemUsageFixed: o.hostMemUsageFixed.slice(),
    hostBalloonKB: o.hostBalloonKB.slice(),
    hostSwapInKBps: o.hostSwapInKBps.slice(),
    hostMemState: o.hostMemState.slice(),
    hostInMaintenance: o.hostInMaintenance.slice(),
  };
}

/**
 * Samples of the last few steps. The sample of step k is complete at the end of step k
 * and reaches the decision code `lagSteps` later (one poll interval): at the start of step
 * s the newest usable sample is the one of step s - 1 - lagSteps.
 */
export class ObservationRing {
  private readonly slots: Observation[];

  constructor(
    world: World,
    private readonly lagSteps: number,
  ) {
    const V = world.vms.count;
    const H = world.hosts.count;
    this.slots = Array.from({ length: lagSteps + 2 }, () => ({
      step: -1,
      sampledAtMs: 0,
      vmHost: new Int32Array(V),
      vmReadyMs: new Float64Array(V),
      vmBalloonKB: new Float64Array(V),
      vmSwappedKB: new Float64Array(V),
      vmUtilPercent: new Float64Array(V),
      hostCpuUsageFixed: new Int32Array(H),
      hostMemUsageFixed: new Int32Array(H),
      hostBalloonKB: new Float64Array(H),
      hostSwapInKBps: new Float64Array(H),
      hostMemState: new Int32Array(H),
      hostInMaintenance: new Uint8Array(H),
    }));
  }

  /** The slot to fill with the sample of `step`. */
  writable(step: number, sampledAtMs: number): Observation {
    const slot = this.slots[step % this.slots.length]!;
    slot.step = step;
    slot.sampledAtMs = sampledAtMs;
    return slot;
  }

  /** The newest sample the decision code may see at the start of `step`, if any. */
  visibleAt(step: number): Observation | undefined {
    const k = step - 1 - this.lagSteps;
    if (k < 0) return undefined;
    const slot = this.slots[k % this.slots.length]!;
    return slot.step === k ? slot : undefined;
  }
}
