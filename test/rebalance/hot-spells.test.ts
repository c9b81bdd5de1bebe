import { expect } from "chai";
import type { HostMetrics } from "../../src/model/inventory.js";
import { nextHotSpells, type HotSpell } from "../../src/rebalance/hot-spells.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { fleet, NOW_MS, spell, spells } from "./fixtures.js";

const t = DEFAULT_POLICY.thresholds;

interface Case {
  name: string;
  metrics: Partial<HostMetrics> | null;
  prev?: HotSpell;
  /** Expected spell start, minutes before NOW; undefined: no spell. */
  sinceMinutes?: number;
  metric?: string;
  clearPolls?: number;
}

const cases: Case[] = [
  {
    name: "given cpu ready 20 % (>= 10) and no spell, starts one now",
    metrics: { cpuReadyPercent: 20 },
    sinceMinutes: 0,
    metric: "cpu ready",
  },
  {
    name: "given cpu ready 20 % and a spell since 7 min, keeps its start",
    metrics: { cpuReadyPercent: 20 },
    prev: spell(0, 7),
    sinceMinutes: 7,
    metric: "cpu ready",
  },
  // hysteresis: clear = every rebalance rule below its threshold lowered by 10 % (ready < 9 %),
  // CLEAR_POLLS_TO_COOL (2) new samples in a row
  {
    name: "given a first clear reading (ready 1 %), keeps the spell (one clear poll)",
    metrics: {},
    prev: spell(0, 7),
    sinceMinutes: 7,
    metric: "cpu ready",
  },
  { name: "given a second clear reading on a new sample, ends the spell", metrics: {}, prev: spell(0, 7, { clearPolls: 1 }) },
  {
    name: "given the same sample again (no new poll), does not count it twice",
    metrics: {},
    prev: spell(0, 7, { clearPolls: 1, lastSampleMs: NOW_MS - 14_000 }),
    sinceMinutes: 7,
    metric: "cpu ready",
  },
  {
    name: "given a warm reading (ready 7 %, clear of 9 %) after one clear poll, ends the spell",
    metrics: { cpuReadyPercent: 7 },
    prev: spell(0, 7, { clearPolls: 1 }),
  },
  {
    name: "given ready 9.5 % (under 10 %, not clear of 9 %), keeps the spell and resets the clear polls",
    metrics: { cpuReadyPercent: 9.5 },
    prev: spell(0, 7, { clearPolls: 1 }),
    sinceMinutes: 7,
    metric: "cpu ready",
    clearPolls: 0,
  },
  {
    name: "given host balloon above its threshold (a memory rule), keeps the spell",
    metrics: { balloonPercent: 50 },
    prev: spell(0, 3),
    sinceMinutes: 3,
    metric: "balloon",
  },
  { name: "given memory state hard, starts a spell", metrics: { memState: "hard" }, sinceMinutes: 0, metric: "memory state" },
  { name: "given only host cpu usage above its threshold, no spell (not a rebalance rule)", metrics: { cpuUsagePercent: 99 } },
  {
    name: "given a stale sample showing cpu ready 20 %, ends the spell (unknown is no reason)",
    metrics: { cpuReadyPercent: 20, sampledAtMs: NOW_MS - 3_600_000 },
    prev: spell(0, 30),
  },
  { name: "given no metrics at all, no spell", metrics: null, prev: spell(0, 30) },
];

describe("nextHotSpells", () => {
  for (const c of cases) {
    it(c.name, () => {
      const { inventory } = fleet(1, c.metrics === null ? {} : { 0: c.metrics });
      const inv =
        c.metrics === null
          ? { ...inventory, hosts: new Map([...inventory.hosts].map(([id, h]) => [id, { ...h, metrics: undefined }])) }
          : inventory;
      const out = nextHotSpells(c.prev ? spells(c.prev) : new Map(), inv, t, NOW_MS);
      const s = out.get("host-0");
      if (c.sinceMinutes === undefined) expect(s).to.equal(undefined);
      else {
        expect(s?.sinceMs).to.equal(NOW_MS - c.sinceMinutes * 60_000);
        expect(s?.metric).to.equal(c.metric);
        if (c.clearPolls !== undefined) expect(s?.clearPolls).to.equal(c.clearPolls);
      }
    });
  }
});
