import { expect } from "chai";
import type { ThresholdPolicy } from "../../src/placement/policy.js";
import { HOST_COUNTER_NAMES, VM_COUNTER_NAMES } from "../../src/vsphere/counter-catalogue.js";
import { wantedCounters, type WantedCounters } from "../../src/vsphere/wanted-counters.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const ALL: WantedCounters = { host: HOST_COUNTER_NAMES, vm: VM_COUNTER_NAMES };
const WITHOUT_COSTOP: WantedCounters = { host: HOST_COUNTER_NAMES, vm: VM_COUNTER_NAMES.filter((n) => n !== "cpu.costop.summation") };

describe("wantedCounters", () => {
  const cases: Array<{ name: string; thresholds: ThresholdPolicy; want: WantedCounters }> = [
    {
      // co-stop's only reader is its rule, off by default; every other counter feeds a rule that is always on, a score or /debug
      name: "given the default thresholds (co-stop off), returns every counter but cpu.costop.summation",
      thresholds: DEFAULT_POLICY.thresholds,
      want: WITHOUT_COSTOP,
    },
    {
      name: "given thresholds.cpuCostopPercent set, returns every counter",
      thresholds: { ...DEFAULT_POLICY.thresholds, cpuCostopPercent: 5 },
      want: ALL,
    },
  ];
  for (const c of cases) it(c.name, () => expect(wantedCounters(c.thresholds)).to.deep.equal(c.want));
});
