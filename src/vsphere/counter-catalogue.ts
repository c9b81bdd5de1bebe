import type { MemStateScale, RawHostSample, RawVmSample } from "../model/derive-metrics.js";
import type { PerfCounterInfo } from "./vijson-types.js";

/** Counters read per VM (aggregate instance ""), each with the raw sample field it fills. */
export const VM_COUNTERS = {
  "cpu.ready.summation": "readyMs",
  "cpu.costop.summation": "costopMs",
  "mem.vmmemctl.average": "balloonKB",
  "mem.swapped.average": "swappedKB",
} as const satisfies Record<string, keyof RawVmSample>;
/** Counters read per host (aggregate instance ""), each with the raw sample field it fills. */
export const HOST_COUNTERS = {
  "cpu.usage.average": "cpuUsageFixed",
  "mem.usage.average": "memUsageFixed",
  "mem.vmmemctl.average": "balloonKB",
  "mem.swapped.average": "swappedKB",
  "mem.swapinRate.average": "swapInKBps",
  "mem.state.latest": "memState",
} as const satisfies Record<string, keyof RawHostSample>;

export const VM_COUNTER_NAMES = Object.keys(VM_COUNTERS) as Array<keyof typeof VM_COUNTERS>;
export const HOST_COUNTER_NAMES = Object.keys(HOST_COUNTERS) as Array<keyof typeof HOST_COUNTERS>;

export type VmCounterName = (typeof VM_COUNTER_NAMES)[number];
export type HostCounterName = (typeof HOST_COUNTER_NAMES)[number];

/** Name <-> key of one vCenter's counters. Keys differ between vCenters: never hard-code them. */
export interface CounterIndex {
  readonly keyByName: ReadonlyMap<string, number>;
  readonly nameByKey: ReadonlyMap<number, string>;
  /** How this vCenter numbers mem.state (see decodeMemState). */
  readonly memStateScale: MemStateScale;
}

/** `group.name.rollup`, e.g. `cpu.ready.summation`. */
export function counterName(info: Pick<PerfCounterInfo, "groupInfo" | "nameInfo" | "rollupType">): string {
  return `${info.groupInfo.key}.${info.nameInfo.key}.${info.rollupType}`;
}

/**
 * Indexes the `perfCounter` catalogue. The mem.state scale is read from the counter's
 * summary: text naming the `clear` state means five states (0 high .. 4 low, ESXi 6+);
 * text saying "four" (and not "clear") means the older four (0 high, 1 soft, 2 hard, 3 low);
 * anything else defaults to five.
 */
export function buildCounterIndex(catalogue: readonly PerfCounterInfo[]): CounterIndex {
  const keyByName = new Map<string, number>();
  const nameByKey = new Map<number, string>();
  let memStateScale: MemStateScale = "five";
  for (const info of catalogue) {
    const name = counterName(info);
    if (keyByName.has(name)) continue;
    keyByName.set(name, info.key);
    nameByKey.set(info.key, name);
    if (name === "mem.state.latest") memStateScale = memStateScaleFromSummary(info.nameInfo.summary);
  }
  return { keyByName, nameByKey, memStateScale };
}

function memStateScaleFromSummary(summary: string | undefined): MemStateScale {
  const text = (summary ?? "").toLowerCase();
  if (/\bclear\b/.test(text)) return "five";
  if (/\bfour\b/.test(text)) return "four";
  return "five";
}

/** Keys of the wanted names this vCenter has, and the names it lacks. */
export function resolveCounterKeys(index: CounterIndex, names: readonly string[]): { keys: number[]; missing: string[] } {
  const keys: number[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const key = index.keyByName.get(name);
    if (key === undefined) missing.push(name);
    else keys.push(key);
  }
  return { keys, missing };
}
