import { expect } from "chai";
import type { PodView } from "../../src/model/cluster.js";
import { chooseEvictions, type RebalanceHold, type RebalancePolicy } from "../../src/rebalance/choose-evictions.js";
import { nodeView } from "../fixtures/cluster.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { fleet, HOT, NOW_MS, pod, REBALANCE, spell, spells } from "./fixtures.js";

/** Issue 26's bound at its default, 2 evictions per 100 pod-hours, with the absolute caps at theirs (2 per cycle, 20 per hour). */
const PRODUCTION: RebalancePolicy = { ...REBALANCE, maxEvictionsPer100PodHours: 2 };

/** `n` running pods besides the candidates, spread over `nodes` (the cool hosts' worker-2..worker-9 unless given). */
function running(n: number, nodes = Array.from({ length: 8 }, (_, i) => `worker-${i + 2}`), prefix = "run"): PodView[] {
  return Array.from({ length: n }, (_, i) => pod(`${prefix}-${i}`, nodes[i % nodes.length]!));
}

const lastHour = (count: number) => Array.from({ length: count }, (_, i) => ({ uid: `old-${i}`, atMs: NOW_MS - 60_000 * (i + 1) }));

interface Case {
  name: string;
  pods: PodView[];
  /** Evictions hvx made in the last hour. */
  evicted: number;
  rebalance?: Partial<RebalancePolicy>;
  want: string[];
  hold?: RebalanceHold;
}

// Hosts 0 and 1 are chronically hot (2 of 10 hosts: under the 25 % brake), `a` runs on host 0, `b` on host 1.
const cases: Case[] = [
  {
    // floor(2 x 100 / 100) = 2 per hour, 2 spent
    name: "given 100 running pods and 2 evictions in the last hour, holds (pod_hours_budget)",
    pods: [pod("a", "worker-0"), ...running(99)],
    evicted: 2,
    want: [],
    hold: { code: "pod_hours_budget", evictedLastHour: 2, maxPerHour: 2, runningPods: 100, per100PodHours: 2 },
  },
  {
    // 2 - 1 = 1 left, though the cycle allows 2
    name: "given 100 running pods, 1 eviction in the last hour and two chronic hosts, evicts only 1",
    pods: [pod("a", "worker-0"), pod("b", "worker-1"), ...running(98)],
    evicted: 1,
    want: ["a"],
  },
  {
    // floor(2 x 49 / 100) = 0
    name: "given 49 running pods and no eviction in the last hour, holds: below 50 pods the budget is 0",
    pods: [pod("a", "worker-0"), ...running(48)],
    evicted: 0,
    want: [],
    hold: { code: "pod_hours_budget", evictedLastHour: 0, maxPerHour: 0, runningPods: 49, per100PodHours: 2 },
  },
  {
    // floor(2 x 50 / 100) = 1
    name: "given 50 running pods and no eviction in the last hour, evicts 1 of the two candidates",
    pods: [pod("a", "worker-0"), pod("b", "worker-1"), ...running(48)],
    evicted: 0,
    want: ["a"],
  },
  {
    // floor(4 x 100 / 100) = 4 per hour, 2 spent
    name: "given maxEvictionsPer100PodHours 4, 100 running pods and 2 evictions in the last hour, evicts both candidates",
    pods: [pod("a", "worker-0"), pod("b", "worker-1"), ...running(98)],
    evicted: 2,
    rebalance: { maxEvictionsPer100PodHours: 4 },
    want: ["a", "b"],
  },
  {
    // floor(2 x 1000 / 100) = 20 = maxEvictionsPerHour: the absolute cap's own hold
    name: "given 1000 running pods and 20 evictions in the last hour, holds on maxEvictionsPerHour (hour_budget)",
    pods: [pod("a", "worker-0"), ...running(999)],
    evicted: 20,
    want: [],
    hold: { code: "hour_budget", evictedLastHour: 20, maxPerHour: 20 },
  },
  {
    // 60 pods, 20 of them on a node no ESXi host backs: 40 governed, floor(2 x 40 / 100) = 0
    name: "given 60 running pods of which 20 on a node hvx maps to no VM, counts only the 40 it governs and holds",
    pods: [pod("a", "worker-0"), ...running(39), ...running(20, ["bare-metal-1"], "bm")],
    evicted: 0,
    want: [],
    hold: { code: "pod_hours_budget", evictedLastHour: 0, maxPerHour: 0, runningPods: 40, per100PodHours: 2 },
  },
];

describe("chooseEvictions: the budget per 100 pod-hours (issue 26)", () => {
  for (const c of cases) {
    it(c.name, () => {
      const { inventory, cluster: base } = fleet(10, { 0: HOT, 1: HOT }, c.pods);
      // A node no VM backs (no providerID, no VM of its name): its pods run, but hvx does not govern them.
      const extra = [...new Set(c.pods.map((p) => p.nodeName!))].filter((n) => !base.nodes.has(n));
      const cluster = { ...base, nodes: new Map([...base.nodes, ...extra.map((n) => [n, nodeView({ name: n })] as const)]) };
      const plan = chooseEvictions({
        inventory,
        cluster,
        placement: DEFAULT_POLICY,
        rebalance: { ...PRODUCTION, ...c.rebalance },
        spells: spells(spell(0, 30), spell(1, 20)),
        evicted: lastHour(c.evicted),
        nowMs: NOW_MS,
      });
      expect(plan.evictions.map((e) => e.pod.name)).to.deep.equal(c.want);
      expect(plan.hold).to.deep.equal(c.hold);
    });
  }
});
