import { expect } from "chai";
import { buildCounterIndex } from "../../src/vsphere/counter-catalogue.js";
import type { EntityHistory } from "../../src/vsphere/entity-history.js";
import { indexHistorySamples } from "../../src/vsphere/history-samples.js";
import type { PerfCounterInfo, PerfEntityMetric } from "../../src/vsphere/vijson-types.js";

const info = (key: number, group: string, name: string, rollup: string): PerfCounterInfo => ({
  key,
  groupInfo: { key: group },
  nameInfo: { key: name },
  rollupType: rollup,
});
const index = buildCounterIndex([info(7013, "cpu", "ready", "summation"), info(7001, "mem", "vmmemctl", "average")]);
const T1 = "2026-11-29T10:05:00Z";
const T2 = "2026-11-29T10:10:00Z";
const metric = (id: string, times: string[], series: Array<[number, string, number[]]>, interval = 300): PerfEntityMetric => ({
  entity: { type: "VirtualMachine", value: id },
  sampleInfo: times.map((timestamp) => ({ timestamp, interval })),
  value: series.map(([counterId, instance, value]) => ({ id: { counterId, instance }, value })),
});
/** entity -> time -> counter -> value, for comparing with the index. */
type Flat = Record<string, Record<number, Record<string, number>>>;
const COUNTERS = ["cpu.ready.summation", "mem.vmmemctl.average"];
const valuesAt = (history: EntityHistory, row: number): Record<string, number> =>
  Object.fromEntries(COUNTERS.flatMap((c) => (history.column(c)?.[row] === undefined ? [] : [[c, history.column(c)![row]!]])));
const flat = (out: ReturnType<typeof indexHistorySamples>): Flat =>
  Object.fromEntries(
    [...out].map(([id, history]) => [id, Object.fromEntries([...history.times()].map((t) => [t, valuesAt(history, history.rowAt(t)!)]))]),
  );

const cases: Array<{ name: string; pieces: PerfEntityMetric[][]; want: Flat }> = [
  {
    name: "given two samples of two counters, indexes each sample by its end time with both counters",
    pieces: [
      [
        metric(
          "vm-1",
          [T1, T2],
          [
            [7013, "", [100, 200]],
            [7001, "", [0, 2048]],
          ],
        ),
      ],
    ],
    want: {
      "vm-1": {
        [Date.parse(T1)]: { "cpu.ready.summation": 100, "mem.vmmemctl.average": 0 },
        [Date.parse(T2)]: { "cpu.ready.summation": 200, "mem.vmmemctl.average": 2048 },
      },
    },
  },
  {
    name: "given vCenter's -1, a per-vCPU instance and a counter not in the catalogue, keeps only the aggregate known values",
    pieces: [
      [
        metric(
          "vm-1",
          [T1, T2],
          [
            [7013, "", [-1, 200]],
            [7013, "0", [50, 60]],
            [9999, "", [7, 7]],
          ],
        ),
      ],
    ],
    want: { "vm-1": { [Date.parse(T1)]: {}, [Date.parse(T2)]: { "cpu.ready.summation": 200 } } },
  },
  {
    name: "given the entity's counters split over two replies, merges them into one sample per time",
    pieces: [[metric("vm-1", [T1], [[7013, "", [100]]])], [metric("vm-1", [T1], [[7001, "", [4096]]])]],
    want: { "vm-1": { [Date.parse(T1)]: { "cpu.ready.summation": 100, "mem.vmmemctl.average": 4096 } } },
  },
  {
    name: "given an unparsable timestamp and a sample of interval 0, drops those samples and keeps the rest",
    pieces: [[metric("vm-1", ["yesterday", T2], [[7013, "", [1, 2]]]), metric("vm-2", [T1], [[7013, "", [3]]], 0)]],
    want: { "vm-1": { [Date.parse(T2)]: { "cpu.ready.summation": 2 } }, "vm-2": {} },
  },
  {
    name: "given a series shorter than its sample times, leaves the later samples without that counter",
    pieces: [[metric("vm-1", [T1, T2], [[7013, "", [100]]])]],
    want: { "vm-1": { [Date.parse(T1)]: { "cpu.ready.summation": 100 }, [Date.parse(T2)]: {} } },
  },
];

describe("indexHistorySamples", () => {
  for (const c of cases) {
    it(c.name, () => {
      const out = new Map<string, EntityHistory>();
      for (const piece of c.pieces) indexHistorySamples(piece, index, out);
      expect(flat(out)).to.deep.equal(c.want);
    });
  }

  it("given samples of 300 s, records each sample's own interval", () => {
    const out = indexHistorySamples([metric("vm-1", [T1], [[7013, "", [100]]])], index);
    const history = out.get("vm-1")!;
    expect(history.intervalSAt(history.rowAt(Date.parse(T1))!)).to.equal(300);
  });
});
