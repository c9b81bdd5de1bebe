import { expect } from "chai";
import { buildCounterIndex } from "../../src/vsphere/counter-catalogue.js";
import { indexPerfSamples, toRawHostSample, toRawVmSample } from "../../src/vsphere/perf-samples.js";
import type { PerfCounterInfo, PerfEntityMetric } from "../../src/vsphere/vijson-types.js";

const info = (key: number, group: string, name: string, rollup: string): PerfCounterInfo => ({
  key,
  groupInfo: { key: group },
  nameInfo: { key: name },
  rollupType: rollup,
});
// Keys as one odd vCenter numbers them: never the "usual" 12 for cpu.ready.summation.
const index = buildCounterIndex([
  info(7013, "cpu", "ready", "summation"),
  info(7001, "mem", "vmmemctl", "average"),
  info(7004, "cpu", "usage", "average"),
  info(7009, "mem", "state", "latest"),
]);
const metric = (
  id: string,
  type: string,
  series: Array<[number, string, number[]]>,
  timestamp = "2026-11-29T10:00:20Z",
): PerfEntityMetric => ({
  _typeName: "PerfEntityMetric",
  entity: { _typeName: "ManagedObjectReference", type, value: id },
  sampleInfo: [{ timestamp, interval: 20 }],
  value: series.map(([counterId, instance, value]) => ({ _typeName: "PerfMetricIntSeries", id: { counterId, instance }, value })),
});

describe("indexPerfSamples", () => {
  it("given counter keys from the catalogue, names the values and keeps the aggregate instance only", () => {
    const out = indexPerfSamples(
      [
        metric("vm-31", "VirtualMachine", [
          [7013, "", [1530]],
          [7013, "0", [900]],
          [7001, "", [2048]],
        ]),
      ],
      index,
    );
    const s = out.get("vm-31");
    expect(s?.sampledAtMs).to.equal(Date.parse("2026-11-29T10:00:20Z"));
    expect(s?.intervalS).to.equal(20);
    expect(Object.fromEntries(s?.values ?? [])).to.deep.equal({ "cpu.ready.summation": 1530, "mem.vmmemctl.average": 2048 });
  });

  const dropped: Array<{ name: string; m: PerfEntityMetric }> = [
    { name: "an unknown counter key", m: metric("vm-1", "VirtualMachine", [[12, "", [5]]]) },
    { name: "vCenter's -1 for no data", m: metric("vm-1", "VirtualMachine", [[7013, "", [-1]]]) },
    { name: "an empty series", m: metric("vm-1", "VirtualMachine", [[7013, "", []]]) },
  ];
  for (const c of dropped) {
    it(`given ${c.name}, drops the value`, () => {
      expect(indexPerfSamples([c.m], index).get("vm-1")?.values.size).to.equal(0);
    });
  }

  it("given an unparsable timestamp, drops the entity", () => {
    expect(indexPerfSamples([metric("vm-1", "VirtualMachine", [[7013, "", [5]]], "yesterday")], index).size).to.equal(0);
  });

  it("given several samples, uses the last one", () => {
    const m = metric("host-1", "HostSystem", [[7004, "", [1000, 2067]]]);
    const s = indexPerfSamples([m], index).get("host-1");
    expect(s?.values.get("cpu.usage.average")).to.equal(2067);
  });

  it("maps named values to raw samples", () => {
    const s = indexPerfSamples(
      [
        metric("host-1", "HostSystem", [
          [7004, "", [2067]],
          [7009, "", [3]],
        ]),
      ],
      index,
    ).get("host-1")!;
    expect(toRawHostSample(s)).to.deep.equal({ sampledAtMs: s.sampledAtMs, cpuUsageFixed: 2067, memState: 3 });
    const v = indexPerfSamples([metric("vm-1", "VirtualMachine", [[7013, "", [400]]])], index).get("vm-1")!;
    expect(toRawVmSample(v)).to.deep.equal({ sampledAtMs: v.sampledAtMs, intervalS: 20, readyMs: 400 });
  });
});
