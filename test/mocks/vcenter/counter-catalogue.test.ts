import { expect } from "chai";
import { COUNTERS, counterByKey, counterFullName, counterKey, toPerfCounterInfoWire } from "../../../mocks/vcenter/counter-catalogue.js";

// Keys of one real vCenter 8 table, for the counters hvx reads.
const REAL_TABLE: Record<string, number> = {
  "cpu.usage.average": 2,
  "cpu.ready.summation": 12,
  "mem.usage.average": 24,
  "mem.vmmemctl.average": 90,
  "mem.swapped.average": 70,
  "mem.swapinRate.average": 150,
  "mem.state.latest": 102,
};

describe("counter catalogue", () => {
  it("given the default offset 7000, no key matches a real vCenter's table", () => {
    for (const c of COUNTERS) expect(counterKey(c, 7000)).to.be.greaterThan(7000);
    for (const [name, realKey] of Object.entries(REAL_TABLE)) {
      const c = COUNTERS.find((x) => counterFullName(x) === name);
      expect(c, name).not.to.equal(undefined);
      expect(counterKey(c!, 7000)).not.to.equal(realKey);
    }
  });

  it("given any offset, keys are unique and counterByKey inverts counterKey", () => {
    for (const offset of [0, 123, 7000]) {
      const keys = COUNTERS.map((c) => counterKey(c, offset));
      expect(new Set(keys).size).to.equal(COUNTERS.length);
      for (const c of COUNTERS) expect(counterByKey(counterKey(c, offset), offset)).to.equal(c);
    }
  });

  it("writes PerfCounterInfo with ElementDescription name, group and unit infos", () => {
    const wire = toPerfCounterInfoWire(0) as Array<Record<string, any>>;
    const state = wire.find((w) => w["groupInfo"].key === "mem" && w["nameInfo"].key === "state")!;
    expect(state).to.include({ _typeName: "PerfCounterInfo", rollupType: "latest", statsType: "absolute" });
    expect(state["unitInfo"]).to.include({ _typeName: "ElementDescription", key: "number" });
  });
});
