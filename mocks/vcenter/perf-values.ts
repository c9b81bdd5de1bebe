import { counterFullName, type CounterDef } from "./counter-catalogue.js";
import { vmsOnHost, type MockState } from "./mock-state.js";
import { MEM_STATES, type HostSpec, type MemStateName, type VmSpec } from "./scenario-schema.js";
import { memStateValue, seriesValue } from "./series-value.js";

/** Real-time sampling interval, seconds (intervalId 20). */
export const SAMPLE_INTERVAL_S = 20;
const SAMPLE_MS = SAMPLE_INTERVAL_S * 1000;
const UPTIME_BASE_S = 30 * 86_400;

/**
 * `vms`: the host's VMs (`vmsOnHost`), when the caller resolved them once for many samples: a
 * history query asks 288 samples per counter, and finding them again for each one (a scan of
 * every VM) made the mock's history replies cost more CPU than hvx's reading of them.
 */
export type PerfEntity = { kind: "host"; host: HostSpec; vms?: readonly VmSpec[] } | { kind: "vm"; vm: VmSpec };

/**
 * One sample of a counter for an entity, in vCenter units, for the 20 s sample ending
 * `atSeconds` after the mock's start. `instance` "" is the aggregate; for a VM's
 * cpu.ready.summation, "0".."n-1" are its vCPUs. Undefined: the entity has no such series.
 *
 *   cpu.ready.summation (VM, "")  = ready% / 100 x 20000 ms x vCPUs (10 % x 4 vCPU = 8000)
 *   cpu.costop.summation (VM, "") = co-stop% / 100 x 20000 ms x vCPUs, like ready (absent: 5 % of the ready time)
 *   cpu.usage/mem.usage.average   = percent x 100 (fixed point: 2067 = 20.67 %)
 *   mem.vmmemctl/swapped.average  = MiB x 1024 (KB)
 *   mem.state.latest              = index in high, clear, soft, hard, low (memStateEncoding five)
 */
export function counterValue(state: MockState, c: CounterDef, e: PerfEntity, instance: string, atSeconds: number): number | undefined {
  if (!c.entities.includes(e.kind)) return undefined;
  const name = counterFullName(c);
  if (e.kind === "vm") {
    if (instance !== "") {
      const cpu = Number(instance);
      if (name !== "cpu.ready.summation" || !/^\d+$/.test(instance) || cpu >= e.vm.vcpus) return undefined;
      return readyMsPerVcpu(e.vm, atSeconds);
    }
    return vmValue(state, name, e.vm, atSeconds);
  }
  return instance === "" ? hostValue(state, name, e.host, e.vms ?? vmsOnHost(state, e.host.id), atSeconds) : undefined;
}

/** Instances a `"*"` metricId expands to for this counter and entity. */
export function counterInstances(c: CounterDef, e: PerfEntity): string[] {
  if (e.kind === "vm" && counterFullName(c) === "cpu.ready.summation")
    return ["", ...Array.from({ length: e.vm.vcpus }, (_, i) => String(i))];
  return [""];
}

function readyMsPerVcpu(vm: VmSpec, t: number): number {
  return Math.round((clampPct(seriesValue(vm.metrics.readyPercent, t)) / 100) * SAMPLE_MS);
}

/** cpu.costop.summation over the VM's vCPUs; without `costopPercent`, 5 % of its ready time. */
function costopMs(vm: VmSpec, t: number): number {
  const costop = vm.metrics.costopPercent;
  if (costop === undefined) return Math.round(readyMsPerVcpu(vm, t) * vm.vcpus * 0.05);
  return Math.round((clampPct(seriesValue(costop, t)) / 100) * SAMPLE_MS) * vm.vcpus;
}

function vmValue(state: MockState, name: string, vm: VmSpec, t: number): number | undefined {
  const m = vm.metrics;
  const memKB = vm.memoryMiB * 1024;
  const host = state.hosts.get(vm.host);
  switch (name) {
    case "cpu.ready.summation":
      return readyMsPerVcpu(vm, t) * vm.vcpus;
    case "cpu.costop.summation":
      return costopMs(vm, t);
    case "cpu.usage.average":
      return fixed100(seriesValue(m.cpuUsagePercent, t));
    case "cpu.usagemhz.average":
      return Math.round((clampPct(seriesValue(m.cpuUsagePercent, t)) / 100) * vm.vcpus * (host?.cpuMhz ?? 2000));
    case "mem.usage.average":
      return 2500;
    case "mem.consumed.average":
      return Math.round(memKB * 0.7);
    case "mem.active.average":
      return Math.round(memKB * 0.2);
    case "mem.vmmemctl.average":
      return kb(seriesValue(m.balloonMiB, t));
    case "mem.swapped.average":
      return kb(seriesValue(m.swappedMiB, t));
    case "mem.swapinRate.average":
      return 0;
    case "mem.swapoutRate.average":
      return 0;
    case "net.usage.average":
      return 120 + (numericId(vm.id) % 50);
    case "disk.usage.average":
      return 300 + (numericId(vm.id) % 200);
    case "sys.uptime.latest":
      return UPTIME_BASE_S + Math.round(t);
    default:
      return undefined;
  }
}

function hostValue(state: MockState, name: string, h: HostSpec, onHost: readonly VmSpec[], t: number): number | undefined {
  const m = h.metrics;
  const sumVms = (f: (v: VmSpec) => number) => onHost.reduce((s, v) => (v.powerState === "POWERED_ON" ? s + f(v) : s), 0);
  const memPct = clampPct(seriesValue(m.memUsagePercent, t));
  switch (name) {
    case "cpu.ready.summation":
      return sumVms((v) => readyMsPerVcpu(v, t) * v.vcpus);
    case "cpu.usage.average":
      return fixed100(seriesValue(m.cpuUsagePercent, t));
    case "cpu.usagemhz.average":
      return Math.round((clampPct(seriesValue(m.cpuUsagePercent, t)) / 100) * h.cpuCores * h.cpuMhz);
    case "mem.usage.average":
      return fixed100(memPct);
    case "mem.consumed.average":
      return Math.round((memPct / 100) * h.memoryMiB * 1024);
    case "mem.active.average":
      return Math.round((memPct / 100) * h.memoryMiB * 1024 * 0.4);
    case "mem.vmmemctl.average":
      return m.balloonMiB !== undefined ? kb(seriesValue(m.balloonMiB, t)) : sumVms((v) => kb(seriesValue(v.metrics.balloonMiB, t)));
    case "mem.swapped.average":
      return m.swappedMiB !== undefined ? kb(seriesValue(m.swappedMiB, t)) : sumVms((v) => kb(seriesValue(v.metrics.swappedMiB, t)));
    case "mem.swapinRate.average":
      return Math.max(0, Math.round(seriesValue(m.swapInKBps, t)));
    case "mem.swapoutRate.average":
      return Math.max(0, Math.round(seriesValue(m.swapOutKBps, t)));
    case "mem.state.latest":
      return memStateCode(memStateValue(m.memState, t), state.scenario.memStateEncoding);
    case "net.usage.average":
      return 2000 + (numericId(h.id) % 500);
    case "disk.usage.average":
      return 5000 + (numericId(h.id) % 900);
    case "sys.uptime.latest":
      return UPTIME_BASE_S + Math.round(t);
    default:
      return undefined;
  }
}

/** Host CPU usage in MHz and memory usage in MiB for `quickStats`, now. */
export function hostQuickStats(state: MockState, h: HostSpec): { cpuMhz: number; memMiB: number } {
  const t = (state.clock() - state.startMs) / 1000;
  return {
    cpuMhz: Math.round((clampPct(seriesValue(h.metrics.cpuUsagePercent, t)) / 100) * h.cpuCores * h.cpuMhz),
    memMiB: Math.round((clampPct(seriesValue(h.metrics.memUsagePercent, t)) / 100) * h.memoryMiB),
  };
}

/** five: index in high, clear, soft, hard, low; four: high/clear 0, soft 1, hard 2, low 3. */
function memStateCode(s: MemStateName, encoding: "five" | "four"): number {
  const five = MEM_STATES.indexOf(s);
  return encoding === "five" ? five : Math.max(0, five - 1);
}

const clampPct = (p: number) => Math.min(100, Math.max(0, p));
const fixed100 = (pct: number) => Math.round(clampPct(pct) * 100);
const kb = (mib: number) => Math.max(0, Math.round(mib * 1024));
const numericId = (id: string) => Number(id.replace(/\D/g, "")) || 0;
