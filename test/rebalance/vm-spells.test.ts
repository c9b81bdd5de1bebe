import { expect } from "chai";
import type { VmMetrics } from "../../src/model/inventory.js";
import { nextVmSpells, type VmSpell } from "../../src/rebalance/vm-spells.js";
import { fleet, NOW_MS, vmSpell, vmSpells } from "./fixtures.js";

const MAX_AGE_S = 120;
const NODE_VMS = ["vm-0"];

interface Case {
  name: string;
  /** VM vm-0's sample (ready 1 % unless set); null: no metrics. */
  metrics: Partial<VmMetrics> | null;
  prev?: VmSpell;
  nodeVmIds?: string[];
  /** Expected spell start, minutes before NOW; undefined: no spell. */
  sinceMinutes?: number;
  clearPolls?: number;
}

// readyPercent 5, hysteresis 10 %: clear below 4.5 %, two new samples in a row
const cases: Case[] = [
  { name: "given ready 8 % (>= 5) and no spell, starts one now", metrics: { cpuReadyPercent: 8 }, sinceMinutes: 0, clearPolls: 0 },
  { name: "given ready exactly 5 %, starts one (>=)", metrics: { cpuReadyPercent: 5 }, sinceMinutes: 0, clearPolls: 0 },
  { name: "given ready 4.9 % and no spell, starts none", metrics: { cpuReadyPercent: 4.9 } },
  {
    name: "given ready 8 % and a spell since 3 min, keeps its start",
    metrics: { cpuReadyPercent: 8 },
    prev: vmSpell(0, 3),
    sinceMinutes: 3,
    clearPolls: 0,
  },
  {
    name: "given ready 4.7 % (under 5, not under 4.5) after a clear poll, keeps the spell and resets the clear count",
    metrics: { cpuReadyPercent: 4.7 },
    prev: vmSpell(0, 3, { clearPolls: 1 }),
    sinceMinutes: 3,
    clearPolls: 0,
  },
  {
    name: "given a first clear sample (ready 1 %), keeps the spell with one clear poll",
    metrics: { cpuReadyPercent: 1 },
    prev: vmSpell(0, 3),
    sinceMinutes: 3,
    clearPolls: 1,
  },
  { name: "given a second clear sample in a row, ends the spell", metrics: { cpuReadyPercent: 1 }, prev: vmSpell(0, 3, { clearPolls: 1 }) },
  {
    name: "given the same clear sample polled again, does not count it twice",
    metrics: { cpuReadyPercent: 1 },
    prev: vmSpell(0, 3, { clearPolls: 1, lastSampleMs: NOW_MS - 14_000 }),
    sinceMinutes: 3,
    clearPolls: 1,
  },
  { name: "given no ready value, ends the spell at once (unknown is no reason to act)", metrics: null, prev: vmSpell(0, 3) },
  {
    name: "given a stale sample (200 s > 120 s), ends the spell at once",
    metrics: { cpuReadyPercent: 30, sampledAtMs: NOW_MS - 200_000 },
    prev: vmSpell(0, 3),
  },
  { name: "given a VM that backs no node, starts none", metrics: { cpuReadyPercent: 30 }, nodeVmIds: [] },
];

describe("nextVmSpells", () => {
  for (const c of cases) {
    it(c.name, () => {
      const { inventory } = fleet(2, {}, [], c.metrics === null ? {} : { 0: c.metrics });
      const inv =
        c.metrics === null
          ? { ...inventory, vms: new Map([...inventory.vms].map(([id, vm]) => [id, id === "vm-0" ? { ...vm, metrics: undefined } : vm])) }
          : inventory;
      const prev = c.prev ? vmSpells(c.prev) : new Map<string, VmSpell>();
      const got = nextVmSpells(prev, inv as typeof inventory, c.nodeVmIds ?? NODE_VMS, 5, MAX_AGE_S, NOW_MS, 10).get("vm-0");
      if (c.sinceMinutes === undefined) return expect(got).to.equal(undefined);
      expect(got?.sinceMs).to.equal(NOW_MS - c.sinceMinutes * 60_000);
      expect(got?.clearPolls).to.equal(c.clearPolls);
      expect(got?.hostId).to.equal("host-0");
    });
  }

  it("given a VM moved to another host mid-spell, keeps the spell's start on the VM's new host", () => {
    const { inventory } = fleet(2, {}, [], { 0: { cpuReadyPercent: 9 } });
    const moved = {
      ...inventory,
      vms: new Map([...inventory.vms].map(([id, vm]) => [id, id === "vm-0" ? { ...vm, hostId: "host-1" } : vm])),
    };
    const got = nextVmSpells(vmSpells(vmSpell(0, 4)), moved, NODE_VMS, 5, MAX_AGE_S, NOW_MS).get("vm-0");
    expect(got).to.include({ hostId: "host-1", hostName: "esx-1", sinceMs: NOW_MS - 4 * 60_000, value: 9, threshold: 5 });
  });
});
