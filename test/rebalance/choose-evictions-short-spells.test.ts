import { expect } from "chai";
import type { HostMetrics, VmMetrics } from "../../src/model/inventory.js";
import type { PodView } from "../../src/model/cluster.js";
import { chooseEvictions, type RebalanceHold, type RebalancePolicy } from "../../src/rebalance/choose-evictions.js";
import type { HotSpell } from "../../src/rebalance/hot-spells.js";
import type { SpellHistory } from "../../src/rebalance/spell-cost.js";
import type { VmSpell } from "../../src/rebalance/vm-spells.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { fleet, HOT, NOW_MS, pod, REBALANCE, spell, spells, vmSpell, vmSpells } from "./fixtures.js";

// The node VMs' own spells and the cost model (issue 26 §3): restart 30 s, spells from 60 s, chronic at 10 min.
interface Case {
  name: string;
  hosts?: number;
  metrics?: Record<number, Partial<HostMetrics>>;
  vmMetrics?: Record<number, Partial<VmMetrics>>;
  pods: PodView[];
  spells?: HotSpell[];
  vmSpells: VmSpell[];
  history?: SpellHistory;
  rebalance?: Partial<RebalancePolicy>;
  want: string[];
  /** The expected further seconds of each eviction, in order (undefined: chronic). */
  wantRemaining?: Array<number | undefined>;
  hold?: RebalanceHold["code"];
}

const times = (n: number, seconds: number): number[] => Array.from({ length: n }, () => seconds);
/** Ten node VM spells of 5 min ended: one hot for 2 min has 3 min left, one hot for 4 min 1 min. */
const FIVE_MIN: SpellHistory = { hostSeconds: [], vmSeconds: times(10, 300) };
const VM0_HOT: Record<number, Partial<VmMetrics>> = { 0: { cpuReadyPercent: 8 } };

const cases: Case[] = [
  {
    name: "given node VM worker-0 hot 2 min on a cool host, and such spells last 3 min more, evicts a pod off worker-0",
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0"), pod("b", "worker-1")],
    vmSpells: [vmSpell(0, 2)],
    history: FIVE_MIN,
    want: ["a"],
    // (300 - 120) = 180 s > 30 s restart
    wantRemaining: [180],
  },
  {
    name: "given 4.5 min into 5-min spells (30 s left, not more than the 30 s restart), evicts nothing",
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0")],
    vmSpells: [vmSpell(0, 4.5)],
    history: FIVE_MIN,
    want: [],
  },
  {
    name: "given a restart of 200 s against 180 s left, evicts nothing",
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0")],
    vmSpells: [vmSpell(0, 2)],
    history: FIVE_MIN,
    rebalance: { restartSeconds: 200 },
    want: [],
  },
  {
    name: "given no ended spells yet (a fresh hvx), evicts nothing off a 2-min spell: no opinion",
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0")],
    vmSpells: [vmSpell(0, 2)],
    want: [],
  },
  {
    name: "given a spell of 30 s (under minSpellSeconds 60), evicts nothing",
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0")],
    vmSpells: [vmSpell(0, 0.5)],
    history: FIVE_MIN,
    want: [],
  },
  {
    name: "given a node VM hot for 12 min (chronic) and no history, evicts as for a chronic host",
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0")],
    vmSpells: [vmSpell(0, 12)],
    want: ["a"],
    wantRemaining: [undefined],
  },
  {
    name: "given a host spell of 2 min and host spells lasting 5 min, evicts off that host",
    metrics: { 0: HOT },
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 2)],
    vmSpells: [],
    history: { hostSeconds: times(10, 300), vmSeconds: [] },
    want: ["a"],
    wantRemaining: [180],
  },
  {
    name: "given a chronic host spell and a short node VM spell on the same host, evicts one pod (one per host per cycle)",
    metrics: { 0: HOT },
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0"), pod("b", "worker-0")],
    spells: [spell(0, 11)],
    vmSpells: [vmSpell(0, 2)],
    history: FIVE_MIN,
    want: ["a"],
    wantRemaining: [undefined],
  },
  {
    name: "given two short node VM spells, takes the longer expected remainder first",
    vmMetrics: { 0: { cpuReadyPercent: 8 }, 1: { cpuReadyPercent: 8 } },
    pods: [pod("a", "worker-0"), pod("b", "worker-1")],
    vmSpells: [vmSpell(0, 3), vmSpell(1, 1.5)],
    history: FIVE_MIN,
    rebalance: { maxEvictionsPerCycle: 1 },
    want: ["b"],
    wantRemaining: [210],
  },
  {
    name: "given 3 of 10 hosts hot (brake 25 %), holds the node VM spells too",
    metrics: { 0: HOT, 1: HOT, 2: HOT },
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0")],
    vmSpells: [vmSpell(0, 2)],
    history: FIVE_MIN,
    want: [],
    hold: "brake",
  },
  {
    name: "given the hour's budget spent, holds the node VM spells too",
    vmMetrics: VM0_HOT,
    pods: [pod("a", "worker-0")],
    vmSpells: [vmSpell(0, 2)],
    history: FIVE_MIN,
    rebalance: { maxEvictionsPerHour: 1 },
    want: [],
    hold: "hour_budget",
  },
];

describe("chooseEvictions: node VM spells and the cost model", () => {
  for (const c of cases) {
    it(c.name, () => {
      const { inventory, cluster } = fleet(c.hosts ?? 10, c.metrics ?? {}, c.pods, c.vmMetrics ?? {});
      const plan = chooseEvictions({
        inventory,
        cluster,
        placement: DEFAULT_POLICY,
        rebalance: { ...REBALANCE, ...c.rebalance },
        spells: spells(...(c.spells ?? [])),
        vmSpells: vmSpells(...c.vmSpells),
        ...(c.history ? { history: c.history } : {}),
        evicted: c.hold === "hour_budget" ? [{ uid: "uid-x", atMs: NOW_MS - 60_000 }] : [],
        nowMs: NOW_MS,
      });
      expect(plan.evictions.map((e) => e.pod.name)).to.deep.equal(c.want);
      if (c.wantRemaining) expect(plan.evictions.map((e) => e.expectedRemainingSeconds)).to.deep.equal(c.wantRemaining);
      expect(plan.hold?.code).to.equal(c.hold);
    });
  }
});
