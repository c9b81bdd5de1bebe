import type { HostMetrics, MemState, VmMetrics } from "./inventory.js";

/**
 * Pure conversions from vCenter's raw counter units to the derived units of
 * `model/inventory.ts`. Shared by the poller and the simulator.
 */

/** Raw VM sample, vCenter units. */
export interface RawVmSample {
  /** Sample timestamp, epoch ms. */
  readonly sampledAtMs: number;
  /** Sampling interval, s (20 for real-time). */
  readonly intervalS: number;
  /** cpu.ready.summation, ms of ready time in the interval, summed over vCPUs. */
  readonly readyMs?: number;
  /** cpu.costop.summation, ms of co-stop time in the interval, summed over vCPUs. */
  readonly costopMs?: number;
  /** mem.vmmemctl.average, KB. */
  readonly balloonKB?: number;
  /** mem.swapped.average, KB. */
  readonly swappedKB?: number;
}

/** Raw host sample, vCenter units. */
export interface RawHostSample {
  readonly sampledAtMs: number;
  /** cpu.usage.average, percent x100 (2067 = 20.67 %). */
  readonly cpuUsageFixed?: number;
  /** mem.usage.average, percent x100. */
  readonly memUsageFixed?: number;
  /** mem.vmmemctl.average, KB. */
  readonly balloonKB?: number;
  /** mem.swapped.average at host level, KB (absent: the VMs' sum is used). */
  readonly swappedKB?: number;
  /** mem.swapinRate.average, KB/s. */
  readonly swapInKBps?: number;
  /** mem.state.latest, raw number. */
  readonly memState?: number;
}

/** A derived metric of a host or a VM (`HostMetrics`/`VmMetrics`: one name for the same quantity in either). */
type MetricField = Exclude<keyof HostMetrics | keyof VmMetrics, "sampledAtMs">;

/**
 * The metrics each raw VM field is derived into: the VM's own and, through its VMs, the host's
 * (the conversions below). What a counter is read for (src/vsphere/wanted-counters.ts).
 */
export const METRICS_OF_RAW_VM: { readonly [K in Exclude<keyof RawVmSample, "sampledAtMs" | "intervalS">]-?: readonly MetricField[] } = {
  readyMs: ["cpuReadyPercent"],
  costopMs: ["cpuCostopPercent"],
  balloonKB: ["balloonMiB", "balloonPercent"],
  swappedKB: ["swappedMiB"],
};

/** The host metrics each raw host field is derived into (the conversions below). */
export const METRICS_OF_RAW_HOST: { readonly [K in Exclude<keyof RawHostSample, "sampledAtMs">]-?: readonly MetricField[] } = {
  cpuUsageFixed: ["cpuUsagePercent"],
  memUsageFixed: ["memUsagePercent"],
  balloonKB: ["balloonMiB", "balloonPercent"],
  swappedKB: ["swappedMiB"],
  swapInKBps: ["swapInKBps"],
  memState: ["memState"],
};

/** `five`: 0 high, 1 clear, 2 soft, 3 hard, 4 low (ESXi 6+). `four`: 0 high, 1 soft, 2 hard, 3 low (older docs). */
export type MemStateScale = "five" | "four";

const FIVE_STATES: readonly MemState[] = ["high", "clear", "soft", "hard", "low"];
const FOUR_STATES: readonly MemState[] = ["high", "soft", "hard", "low"];

/** Ready % per vCPU, 0..100: ready_ms / (interval_s x 1000) / vcpus x 100. 2000 ms in 20 s on 1 vCPU = 10. */
export function readyPercentPerVcpu(readyMs: number, intervalS: number, vcpus: number): number {
  if (intervalS <= 0 || vcpus <= 0) return 0;
  return (readyMs / (intervalS * 1000) / vcpus) * 100;
}

/** vCenter fixed-point percent (x100) to percent: 2067 -> 20.67. */
export function fixedPointPercent(raw: number): number {
  return raw / 100;
}

/** KB (KiB, as vCenter counts) to MiB. */
export function kbToMiB(kb: number): number {
  return kb / 1024;
}

/** mem.state.latest to a state name; undefined for a value outside the scale. 4 is `low` on either scale. */
export function decodeMemState(raw: number, scale: MemStateScale = "five"): MemState | undefined {
  if (!Number.isInteger(raw) || raw < 0) return undefined;
  if (raw === 4) return "low";
  return (scale === "five" ? FIVE_STATES : FOUR_STATES)[raw];
}

/**
 * A counter that cannot be converted (no vCPUs, no interval) is left unknown, never 0. Fields are
 * set one by one, not spread from conditional objects: a warm start derives millions of samples,
 * and each spread allocated an object.
 */
export function deriveVmMetrics(raw: RawVmSample, vcpus: number): VmMetrics {
  const out: Mutable<VmMetrics> = { sampledAtMs: raw.sampledAtMs };
  if (raw.readyMs !== undefined && vcpus > 0 && raw.intervalS > 0)
    out.cpuReadyPercent = readyPercentPerVcpu(raw.readyMs, raw.intervalS, vcpus);
  // Co-stop is time in the interval like ready: the same conversion.
  if (raw.costopMs !== undefined && vcpus > 0 && raw.intervalS > 0)
    out.cpuCostopPercent = readyPercentPerVcpu(raw.costopMs, raw.intervalS, vcpus);
  if (raw.balloonKB !== undefined) out.balloonMiB = kbToMiB(raw.balloonKB);
  if (raw.swappedKB !== undefined) out.swappedMiB = kbToMiB(raw.swappedKB);
  return out;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A VM as the host derivation sees it. */
export interface HostVmInput {
  readonly vcpus: number;
  readonly memoryMiB: number;
  readonly poweredOn: boolean;
  readonly metrics?: VmMetrics;
}

export interface HostDerivationInput {
  readonly raw?: RawHostSample;
  readonly memoryMiB: number;
  readonly vms: readonly HostVmInput[];
  readonly memStateScale?: MemStateScale;
}

/**
 * Host metrics, only from a host-level sample carrying at least one of the host's own counters
 * (undefined otherwise: the host's metrics are unknown, and nothing derived from its VMs stands
 * in for them or takes the host's sample time). Ready % is the vCPU-weighted
 * mean of its powered-on VMs' per-vCPU ready % (over the VMs that reported it); balloon from
 * the host counter, else the VMs' sum when every powered-on VM reported one, as MiB and % of
 * host memory; swapped MiB likewise. A counter vCenter did not return stays undefined.
 */
export function deriveHostMetrics(input: HostDerivationInput): HostMetrics | undefined {
  const raw = input.raw;
  if (raw === undefined || !hasOwnCounter(raw)) return undefined;
  const on = input.vms.filter((vm) => vm.poweredOn);
  let readyWeighted = 0;
  let readyVcpus = 0;
  for (const vm of on) {
    const ready = vm.metrics?.cpuReadyPercent;
    if (ready !== undefined && vm.vcpus > 0) {
      readyWeighted += ready * vm.vcpus;
      readyVcpus += vm.vcpus;
    }
  }
  const balloonMiB = raw.balloonKB !== undefined ? kbToMiB(raw.balloonKB) : sumOverAll(on, (m) => m.balloonMiB);
  const swappedMiB = raw.swappedKB !== undefined ? kbToMiB(raw.swappedKB) : sumOverAll(on, (m) => m.swappedMiB);
  const memState = raw.memState !== undefined ? decodeMemState(raw.memState, input.memStateScale) : undefined;
  const cpuCostopPercent = vcpuWeightedMean(on, (m) => m.cpuCostopPercent);
  const out: Mutable<HostMetrics> = { sampledAtMs: raw.sampledAtMs };
  if (readyVcpus > 0) out.cpuReadyPercent = readyWeighted / readyVcpus;
  if (cpuCostopPercent !== undefined) out.cpuCostopPercent = cpuCostopPercent;
  if (raw.cpuUsageFixed !== undefined) out.cpuUsagePercent = fixedPointPercent(raw.cpuUsageFixed);
  if (raw.memUsageFixed !== undefined) out.memUsagePercent = fixedPointPercent(raw.memUsageFixed);
  if (balloonMiB !== undefined) out.balloonMiB = balloonMiB;
  if (balloonMiB !== undefined && input.memoryMiB > 0) out.balloonPercent = (balloonMiB / input.memoryMiB) * 100;
  if (swappedMiB !== undefined) out.swappedMiB = swappedMiB;
  if (raw.swapInKBps !== undefined) out.swapInKBps = raw.swapInKBps;
  if (memState !== undefined) out.memState = memState;
  return out;
}

/**
 * Whether vCenter returned any of the host's own counters: every field of a raw host sample but
 * its time is one (so a counter added later counts too). A sample of only -1s, or of none, is no
 * host sample.
 */
function hasOwnCounter(raw: RawHostSample): boolean {
  for (const key in raw) if (key !== "sampledAtMs" && raw[key as keyof RawHostSample] !== undefined) return true;
  return false;
}

/** The vCPU-weighted mean of a per-vCPU VM value over the VMs that reported it (as ready); undefined when none did. */
function vcpuWeightedMean(vms: readonly HostVmInput[], value: (m: VmMetrics) => number | undefined): number | undefined {
  let weighted = 0;
  let vcpus = 0;
  for (const vm of vms) {
    const v = vm.metrics ? value(vm.metrics) : undefined;
    if (v === undefined || vm.vcpus <= 0) continue;
    weighted += v * vm.vcpus;
    vcpus += vm.vcpus;
  }
  return vcpus > 0 ? weighted / vcpus : undefined;
}

/** Sum of a VM value over every given VM; undefined when there is none or one did not report it (a partial sum would understate). */
function sumOverAll(vms: readonly HostVmInput[], value: (m: VmMetrics) => number | undefined): number | undefined {
  if (vms.length === 0) return undefined;
  let sum = 0;
  for (const vm of vms) {
    const v = vm.metrics ? value(vm.metrics) : undefined;
    if (v === undefined) return undefined;
    sum += v;
  }
  return sum;
}

/** vCPU:pCPU and vRAM:pRAM over powered-on VMs; 0 when the host's cores or memory are unknown. */
export function overcommitRatios(
  cpuCores: number,
  memoryMiB: number,
  vms: readonly HostVmInput[],
): { vcpuPerPcpu: number; vramPerPram: number } {
  let vcpus = 0;
  let vramMiB = 0;
  for (const vm of vms) {
    if (!vm.poweredOn) continue;
    vcpus += vm.vcpus;
    vramMiB += vm.memoryMiB;
  }
  return {
    vcpuPerPcpu: cpuCores > 0 ? vcpus / cpuCores : 0,
    vramPerPram: memoryMiB > 0 ? vramMiB / memoryMiB : 0,
  };
}
