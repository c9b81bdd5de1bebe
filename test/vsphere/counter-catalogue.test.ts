import { expect } from "chai";
import { buildCounterIndex, counterName, resolveCounterKeys } from "../../src/vsphere/counter-catalogue.js";
import type { PerfCounterInfo } from "../../src/vsphere/vijson-types.js";

const info = (key: number, group: string, name: string, rollup: string, summary?: string): PerfCounterInfo => ({
  _typeName: "PerfCounterInfo",
  key,
  groupInfo: { key: group },
  nameInfo: { key: name, ...(summary ? { summary } : {}) },
  unitInfo: { key: "millisecond" },
  rollupType: rollup,
  statsType: "delta",
});

describe("counterName", () => {
  it("given group, name and rollup, returns group.name.rollup", () => {
    expect(counterName(info(12, "cpu", "ready", "summation"))).to.equal("cpu.ready.summation");
  });
});

describe("buildCounterIndex", () => {
  const cases: Array<{ name: string; catalogue: PerfCounterInfo[]; lookup: string; want: number | undefined }> = [
    {
      name: "given cpu.ready.summation = 12, maps it to 12",
      catalogue: [info(12, "cpu", "ready", "summation")],
      lookup: "cpu.ready.summation",
      want: 12,
    },
    {
      name: "given another vCenter's key 11, maps it to 11",
      catalogue: [info(11, "cpu", "ready", "summation")],
      lookup: "cpu.ready.summation",
      want: 11,
    },
    {
      name: "given several rollups, keeps them apart",
      catalogue: [info(2, "cpu", "usage", "average"), info(3, "cpu", "usage", "maximum")],
      lookup: "cpu.usage.maximum",
      want: 3,
    },
    {
      name: "given a missing counter, has no key",
      catalogue: [info(2, "cpu", "usage", "average")],
      lookup: "mem.state.latest",
      want: undefined,
    },
  ];
  for (const c of cases) it(c.name, () => expect(buildCounterIndex(c.catalogue).keyByName.get(c.lookup)).to.equal(c.want));

  it("given a key, maps it back to the name", () => {
    expect(buildCounterIndex([info(901, "mem", "vmmemctl", "average")]).nameByKey.get(901)).to.equal("mem.vmmemctl.average");
  });

  const scales: Array<{ summary: string | undefined; want: string }> = [
    { summary: "One of five states: high, clear, soft, hard, low", want: "five" },
    { summary: "One of four threshold levels representing the percentage of free memory", want: "four" },
    { summary: undefined, want: "five" },
  ];
  for (const s of scales) {
    it(`given mem.state summary ${JSON.stringify(s.summary)}, reads the ${s.want}-state scale`, () => {
      expect(buildCounterIndex([info(7, "mem", "state", "latest", s.summary)]).memStateScale).to.equal(s.want);
    });
  }

  it("resolves wanted names to keys and lists the missing ones", () => {
    const index = buildCounterIndex([info(5, "cpu", "ready", "summation")]);
    expect(resolveCounterKeys(index, ["cpu.ready.summation", "mem.swapped.average"])).to.deep.equal({
      keys: [5],
      missing: ["mem.swapped.average"],
    });
  });
});
