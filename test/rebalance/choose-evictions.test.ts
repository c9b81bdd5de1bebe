import { expect } from "chai";
import type { HostMetrics } from "../../src/model/inventory.js";
import type { PodView } from "../../src/model/cluster.js";
import {
  chooseEvictions,
  rankForRebalance,
  type PastEviction,
  type RebalanceHold,
  type RebalancePolicy,
} from "../../src/rebalance/choose-evictions.js";
import type { HotSpell } from "../../src/rebalance/hot-spells.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { amounts, fleet, HOT, NOW_MS, pod, REBALANCE, spell, spells, WARM } from "./fixtures.js";

interface Case {
  name: string;
  hosts: number;
  metrics: Record<number, Partial<HostMetrics>>;
  pods: PodView[];
  spells: HotSpell[];
  evicted?: PastEviction[];
  rebalance?: Partial<RebalancePolicy>;
  /** Overrides of the cluster view's sync and last-event times. */
  view?: { syncedAtMs?: number | undefined; lastEventMs?: number };
  cpuUse?: Record<string, number>;
  /** Evicted pod names, in order. */
  want: string[];
  hold?: RebalanceHold["code"];
}

const HOUR = 3_600_000;
const ten = (hot: number[], extra: Record<number, Partial<HostMetrics>> = {}) =>
  Object.fromEntries([...hot.map((i) => [i, HOT] as const), ...Object.entries(extra)]);

const cases: Case[] = [
  {
    name: "given a host hot for 11 min and an evictable pod on it, evicts that pod",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 11)],
    want: ["a"],
  },
  {
    name: "given a host hot for exactly 10 min, evicts (>= hotForMinutes)",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 10)],
    want: ["a"],
  },
  {
    name: "given a host hot for 9 min, evicts nothing",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 9)],
    want: [],
  },
  {
    name: "given hotForMinutes 5, a host hot for 6 min qualifies",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 6)],
    rebalance: { hotForMinutes: 5 },
    want: ["a"],
  },
  {
    name: "given a pod without a controller, leaves it",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { controllerKind: undefined, ownerKinds: [] })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given a mirror pod (controller Node), leaves it",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { controllerKind: "Node", ownerKinds: ["Node"] })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given a DaemonSet pod, leaves it",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { controllerKind: "DaemonSet", ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given priority class system-node-critical, leaves it",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { priorityClassName: "system-node-critical" })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given priority 2e9 (system-critical), leaves it",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { priority: 2_000_000_000 })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given a pod in an exempt namespace (kube-system), leaves it",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", { namespace: "kube-system" })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given hvx.io/exempt: true, leaves it",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { exemptAnnotation: "true" })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given an emptyDir/hostPath pod, leaves it by default",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { localStorage: true })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given evictLocalStorage, evicts a pod with local storage",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", {}, { localStorage: true })],
    spells: [spell(0, 30)],
    rebalance: { evictLocalStorage: true },
    want: ["a"],
  },
  {
    name: "given a pod with unknown facts, leaves it (unknown is never a reason to act)",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0", { eviction: undefined })],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given priorities 100 and 0 on the host, evicts the lowest priority first",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("high", "worker-0", {}, { priority: 100 }), pod("low", "worker-0", {}, { priority: 0 })],
    spells: [spell(0, 30)],
    want: ["low"],
  },
  {
    // stand-in: limit - request = 4000-500 = 3500 for "burst", 1000-500 = 500 for "steady"
    name: "given equal priority and no usage data, evicts the largest limit above request first",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("steady", "worker-0"), pod("burst", "worker-0", { limits: amounts(4, 2) })],
    spells: [spell(0, 30)],
    want: ["burst"],
  },
  {
    // use - request: steady 1500-500 = 1000 > burst 600-500 = 100
    name: "given per-pod CPU use, evicts the largest use above request first",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("steady", "worker-0"), pod("burst", "worker-0", { limits: amounts(4, 2) })],
    spells: [spell(0, 30)],
    cpuUse: { steady: 1500, burst: 600 },
    want: ["steady"],
  },
  {
    name: "given every other host warm, evicts nothing (nowhere cool)",
    hosts: 10,
    metrics: ten([0], Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => [i, WARM]))),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given the only cool host without metrics (no opinion), evicts nothing",
    hosts: 2,
    metrics: {
      0: HOT,
      1: {
        cpuReadyPercent: undefined,
        cpuUsagePercent: undefined,
        memUsagePercent: undefined,
        balloonPercent: undefined,
        swapInKBps: undefined,
        memState: undefined,
      },
    },
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    rebalance: { hotHostBrakePercent: 100 },
    want: [],
  },
  {
    name: "given requests that fit on no cool node, evicts nothing",
    hosts: 10,
    metrics: ten([0]),
    pods: [
      pod("big", "worker-0", { requests: amounts(7, 8), limits: amounts(8, 8) }),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => pod(`filler-${i}`, `worker-${i}`, { requests: amounts(2, 1) }, { priority: 1000 })),
    ],
    spells: [spell(0, 30)],
    want: [],
  },
  {
    name: "given a pod that fits nowhere and a smaller one, evicts the smaller one",
    hosts: 10,
    metrics: ten([0]),
    pods: [
      pod("big", "worker-0", { requests: amounts(7, 8), limits: amounts(8, 8) }),
      pod("small", "worker-0", {}, { priority: 10 }),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => pod(`filler-${i}`, `worker-${i}`, { requests: amounts(2, 1) }, { priority: 1000 })),
    ],
    spells: [spell(0, 30)],
    want: ["small"],
  },
  {
    name: "given three chronic hosts, evicts at most maxEvictionsPerCycle (2), longest hot first",
    hosts: 20,
    metrics: ten([0, 1, 2]),
    pods: [pod("a", "worker-0"), pod("b", "worker-1"), pod("c", "worker-2")],
    spells: [spell(0, 15), spell(1, 40), spell(2, 20)],
    want: ["b", "c"],
  },
  {
    name: "given one chronic host with three pods, evicts one per host per cycle",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0"), pod("b", "worker-0"), pod("c", "worker-0")],
    spells: [spell(0, 30)],
    want: ["a"],
  },
  {
    name: "given two chronic hosts whose pods are one replica group, evicts one per group per cycle",
    hosts: 10,
    metrics: ten([0, 1]),
    pods: [
      pod("web-1", "worker-0", { ownerKey: "Deployment/payments/web" }),
      pod("web-2", "worker-1", { ownerKey: "Deployment/payments/web" }),
    ],
    spells: [spell(0, 30), spell(1, 20)],
    want: ["web-1"],
  },
  {
    name: "given 20 evictions in the last hour, holds (maxEvictionsPerHour)",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    evicted: Array.from({ length: 20 }, (_, i) => ({ uid: `old-${i}`, atMs: NOW_MS - 60_000 * (i + 1) })),
    want: [],
    hold: "hour_budget",
  },
  {
    name: "given 19 evictions in the last hour and two chronic hosts, evicts only 1",
    hosts: 10,
    metrics: ten([0, 1]),
    pods: [pod("a", "worker-0"), pod("b", "worker-1")],
    spells: [spell(0, 30), spell(1, 20)],
    evicted: Array.from({ length: 19 }, (_, i) => ({ uid: `old-${i}`, atMs: NOW_MS - 60_000 * (i + 1) })),
    want: ["a"],
  },
  {
    name: "given 20 evictions more than an hour ago, evicts again",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    evicted: Array.from({ length: 20 }, (_, i) => ({ uid: `old-${i}`, atMs: NOW_MS - HOUR - 1000 * (i + 1) })),
    want: ["a"],
  },
  {
    // 3 of 10 hosts hot = 30 % > 25 %
    name: "given more than hotHostBrakePercent of the hosts hot, holds (brake)",
    hosts: 10,
    metrics: ten([0, 1, 2]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    want: [],
    hold: "brake",
  },
  {
    // 1 of 4 = 25 %: not more than 25 %
    name: "given exactly hotHostBrakePercent of the hosts hot, evicts",
    hosts: 4,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    want: ["a"],
  },
  {
    name: "given a cluster view never synced, holds (which pods run where is unknown)",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    view: { syncedAtMs: undefined },
    want: [],
    hold: "cluster_stale",
  },
  {
    // kubernetes.maxCacheAgeSeconds 300
    name: "given a cluster view last heard from 6 min ago, holds",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0")],
    spells: [spell(0, 30)],
    view: { lastEventMs: NOW_MS - 360_000 },
    want: [],
    hold: "cluster_stale",
  },
  {
    name: "given the best-ranked pod was evicted by hvx 30 min ago, evicts the next one",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0"), pod("b", "worker-0")],
    spells: [spell(0, 30)],
    evicted: [{ uid: "uid-a", atMs: NOW_MS - 30 * 60_000 }],
    want: ["b"],
  },
  {
    name: "given the pod was evicted by hvx 61 min ago, may evict it again",
    hosts: 10,
    metrics: ten([0]),
    pods: [pod("a", "worker-0"), pod("b", "worker-0")],
    spells: [spell(0, 90)],
    evicted: [{ uid: "uid-a", atMs: NOW_MS - 61 * 60_000 }],
    want: ["a"],
  },
];

describe("chooseEvictions", () => {
  for (const c of cases) {
    it(c.name, () => {
      const { inventory, cluster: base } = fleet(c.hosts, c.metrics, c.pods);
      const cluster = c.view ? { ...base, ...c.view } : base;
      const plan = chooseEvictions({
        inventory,
        cluster: cluster as typeof base,
        placement: DEFAULT_POLICY,
        rebalance: { ...REBALANCE, ...c.rebalance },
        spells: spells(...c.spells),
        evicted: c.evicted ?? [],
        nowMs: NOW_MS,
        ...(c.cpuUse ? { cpuUseMilli: (p: PodView) => c.cpuUse![p.name] } : {}),
      });
      expect(plan.evictions.map((e) => e.pod.name)).to.deep.equal(c.want);
      expect(plan.hold?.code).to.equal(c.hold);
    });
  }

  it("names the target: a node on a cool host other than the pod's own, with its score", () => {
    const { inventory, cluster } = fleet(3, { 0: HOT, 1: WARM }, [pod("a", "worker-0")]);
    const plan = chooseEvictions({
      inventory,
      cluster,
      placement: DEFAULT_POLICY,
      rebalance: { ...REBALANCE, hotHostBrakePercent: 50 },
      spells: spells(spell(0, 12)),
      evicted: [],
      nowMs: NOW_MS,
    });
    expect(plan.evictions).to.have.length(1);
    const e = plan.evictions[0]!;
    expect(e.target.node).to.equal("worker-2");
    expect(e.target.hostId).to.equal("host-2");
    expect(e.node).to.equal("worker-0");
    expect(e.hotForSeconds).to.equal(720);
    expect(e.spell.metric).to.equal("cpu ready");
  });

  it("reports the brake's figures", () => {
    const { inventory, cluster } = fleet(4, { 0: HOT, 1: HOT }, [pod("a", "worker-0")]);
    const plan = chooseEvictions({
      inventory,
      cluster,
      placement: DEFAULT_POLICY,
      rebalance: REBALANCE,
      spells: spells(spell(0, 30)),
      evicted: [],
      nowMs: NOW_MS,
    });
    expect(plan.hold).to.deep.equal({ code: "brake", hotPercent: 50, brakePercent: 25 });
  });
});

describe("rankForRebalance", () => {
  it("given equal priority and equal excess, orders by namespace/name", () => {
    const ranked = rankForRebalance([pod("b", "n"), pod("a", "n")]);
    expect(ranked.map((p) => p.name)).to.deep.equal(["a", "b"]);
  });
});
