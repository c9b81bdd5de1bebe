/**
 * The performance counters the mock serves, in vCenter's `PerfCounterInfo` terms. Keys are
 * `counterKeyOffset + slot`; the slots are shuffled on purpose and the default offset (7000)
 * puts every key far from any real vCenter's table (where cpu.ready.summation is 11 or 12),
 * so a client that hard-codes keys gets nothing back.
 */
export type CounterEntity = "host" | "vm";
export interface CounterDef {
  readonly group: string;
  readonly name: string;
  readonly rollup: "average" | "summation" | "latest" | "maximum" | "minimum" | "none";
  readonly unit: "percent" | "megaHertz" | "millisecond" | "kiloBytes" | "kiloBytesPerSecond" | "number" | "second";
  readonly statsType: "absolute" | "delta" | "rate";
  readonly level: number;
  readonly label: string;
  readonly summary: string;
  readonly slot: number;
  readonly entities: readonly CounterEntity[];
}

const both: readonly CounterEntity[] = ["host", "vm"];
export const COUNTERS: readonly CounterDef[] = [
  {
    group: "mem",
    name: "vmmemctl",
    rollup: "average",
    unit: "kiloBytes",
    statsType: "absolute",
    level: 1,
    label: "Ballooned memory",
    summary: "Amount of guest physical memory reclaimed from the virtual machine by the balloon driver in the guest",
    slot: 1,
    entities: both,
  },
  {
    group: "cpu",
    name: "usage",
    rollup: "average",
    unit: "percent",
    statsType: "rate",
    level: 1,
    label: "Usage",
    summary: "CPU usage as a percentage during the interval",
    slot: 4,
    entities: both,
  },
  {
    group: "sys",
    name: "uptime",
    rollup: "latest",
    unit: "second",
    statsType: "absolute",
    level: 1,
    label: "Uptime",
    summary: "Total time elapsed, in seconds, since last system startup",
    slot: 6,
    entities: both,
  },
  {
    group: "mem",
    name: "state",
    rollup: "latest",
    unit: "number",
    statsType: "absolute",
    level: 2,
    label: "State",
    summary: "One of five memory states: 0 (high), 1 (clear), 2 (soft), 3 (hard), 4 (low)",
    slot: 9,
    entities: ["host"],
  },
  {
    group: "cpu",
    name: "ready",
    rollup: "summation",
    unit: "millisecond",
    statsType: "delta",
    level: 1,
    label: "Ready",
    summary: "Time that the virtual machine was ready, but could not get scheduled to run on the physical CPU",
    slot: 13,
    entities: both,
  },
  {
    group: "mem",
    name: "swapinRate",
    rollup: "average",
    unit: "kiloBytesPerSecond",
    statsType: "rate",
    level: 1,
    label: "Swap in rate",
    summary: "Rate at which guest physical memory is swapped in from the swap space",
    slot: 15,
    entities: both,
  },
  {
    group: "net",
    name: "usage",
    rollup: "average",
    unit: "kiloBytesPerSecond",
    statsType: "rate",
    level: 1,
    label: "Usage",
    summary: "Network utilization (combined transmit-rates and receive-rates) during the interval",
    slot: 17,
    entities: both,
  },
  {
    group: "mem",
    name: "usage",
    rollup: "average",
    unit: "percent",
    statsType: "absolute",
    level: 1,
    label: "Usage",
    summary: "Memory usage as percent of total configured or available memory",
    slot: 19,
    entities: both,
  },
  {
    group: "cpu",
    name: "costop",
    rollup: "summation",
    unit: "millisecond",
    statsType: "delta",
    level: 2,
    label: "Co-stop",
    summary: "Time the virtual machine is ready to run, but is unable to run due to co-scheduling constraints",
    slot: 22,
    entities: ["vm"],
  },
  {
    group: "mem",
    name: "swapped",
    rollup: "average",
    unit: "kiloBytes",
    statsType: "absolute",
    level: 2,
    label: "Swapped",
    summary: "Current amount of guest physical memory swapped out to the virtual machine swap file by the VMkernel",
    slot: 23,
    entities: both,
  },
  {
    group: "disk",
    name: "usage",
    rollup: "average",
    unit: "kiloBytesPerSecond",
    statsType: "rate",
    level: 1,
    label: "Usage",
    summary: "Aggregated disk I/O rate",
    slot: 26,
    entities: both,
  },
  {
    group: "cpu",
    name: "usagemhz",
    rollup: "average",
    unit: "megaHertz",
    statsType: "rate",
    level: 1,
    label: "Usage in MHz",
    summary: "CPU usage in megahertz during the interval",
    slot: 28,
    entities: both,
  },
  {
    group: "mem",
    name: "consumed",
    rollup: "average",
    unit: "kiloBytes",
    statsType: "absolute",
    level: 1,
    label: "Consumed",
    summary: "Amount of host physical memory consumed for backing up guest physical memory pages",
    slot: 31,
    entities: both,
  },
  {
    group: "mem",
    name: "swapoutRate",
    rollup: "average",
    unit: "kiloBytesPerSecond",
    statsType: "rate",
    level: 1,
    label: "Swap out rate",
    summary: "Rate at which guest physical memory is swapped out to the swap space",
    slot: 34,
    entities: both,
  },
  {
    group: "mem",
    name: "active",
    rollup: "average",
    unit: "kiloBytes",
    statsType: "absolute",
    level: 2,
    label: "Active",
    summary: "Amount of guest physical memory that is being actively read or written by guest",
    slot: 37,
    entities: both,
  },
];

const GROUP_LABELS: Record<string, string> = { cpu: "CPU", mem: "Memory", net: "Network", disk: "Disk", sys: "System" };
const UNIT_LABELS: Record<CounterDef["unit"], [string, string]> = {
  percent: ["%", "Percentage"],
  megaHertz: ["MHz", "Megahertz"],
  millisecond: ["ms", "Millisecond"],
  kiloBytes: ["KB", "Kilobyte"],
  kiloBytesPerSecond: ["KBps", "Kilobytes per second"],
  number: ["num", "Number"],
  second: ["sec", "Second"],
};

/** `group.name.rollup`, e.g. `cpu.ready.summation`. */
export function counterFullName(c: CounterDef): string {
  return `${c.group}.${c.name}.${c.rollup}`;
}

export function counterKey(c: CounterDef, offset: number): number {
  return offset + c.slot;
}

/** Looks a counter up by its key under the given offset. */
export function counterByKey(key: number, offset: number): CounterDef | undefined {
  return COUNTERS.find((c) => counterKey(c, offset) === key);
}

/** The catalogue as `GET PerformanceManager/{moId}/perfCounter` returns it. */
export function toPerfCounterInfoWire(offset: number, memStateEncoding: "five" | "four" = "five"): unknown[] {
  return COUNTERS.map((c) => {
    const summary =
      c.group === "mem" && c.name === "state" && memStateEncoding === "four"
        ? "One of four threshold levels: 0 (high), 1 (soft), 2 (hard), 3 (low)"
        : c.summary;
    const [unitLabel, unitSummary] = UNIT_LABELS[c.unit];
    return {
      _typeName: "PerfCounterInfo",
      key: counterKey(c, offset),
      nameInfo: { _typeName: "ElementDescription", label: c.label, summary, key: c.name },
      groupInfo: {
        _typeName: "ElementDescription",
        label: GROUP_LABELS[c.group] ?? c.group,
        summary: GROUP_LABELS[c.group] ?? c.group,
        key: c.group,
      },
      unitInfo: { _typeName: "ElementDescription", label: unitLabel, summary: unitSummary, key: c.unit },
      rollupType: c.rollup,
      statsType: c.statsType,
      level: c.level,
      perDeviceLevel: Math.min(4, c.level + 2),
    };
  });
}
