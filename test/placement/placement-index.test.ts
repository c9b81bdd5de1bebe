import { expect } from "chai";
import { applyAllRejectedValve } from "../../src/placement/all-rejected-valve.js";
import { RequestMemo } from "../../src/placement/decide-node.js";
import { withInFlight } from "../../src/placement/in-flight-ledger.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { LatestPlacementIndex, PlacementIndex } from "../../src/placement/placement-index.js";
import type { PlacementContext } from "../../src/placement/decide-node.js";
import type { PodMeta } from "../../src/placement/exemption.js";
import type { ClusterView, PodView } from "../../src/model/cluster.js";
import type { InventoryView } from "../../src/model/inventory.js";
import { formatReasons } from "../../src/protocol/format-reason.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView, withBinding } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

const inventory = inventoryOf(
  [
    hostView({ id: "host-1", name: "esx-hot", metrics: { cpuReadyPercent: 14 } }),
    hostView({ id: "host-2", name: "esx-warm", metrics: { cpuReadyPercent: 6 } }),
    hostView({ id: "host-3", name: "esx-cool", cpuCores: 4 }),
  ],
  [
    vmView({ id: "vm-1", name: "n-hot", hostId: "host-1", biosUuid: undefined }),
    vmView({ id: "vm-2", name: "n-warm", hostId: "host-2", biosUuid: undefined }),
    vmView({ id: "vm-3", name: "n-cool-a", hostId: "host-3", biosUuid: undefined }),
    vmView({ id: "vm-4", name: "n-cool-b", hostId: "host-3", biosUuid: undefined }),
  ],
);
const names = ["n-hot", "n-warm", "n-cool-a", "n-cool-b", "n-unknown"].map((name) => ({ name }));
const pod: PodMeta = { namespace: "payments", name: "api-1", ownerKinds: ["ReplicaSet"], annotations: {} };
// host-3 has 4 cores; 2 pods of 7 CPU limits each: (14 + 2) / 4 = 4.0 <= 4.0 passes, one more core crosses the stacked cap.
const nodes = ["n-hot", "n-warm", "n-cool-a", "n-cool-b"].map((name) => nodeView({ name }));
const running = [podView({ nodeName: "n-cool-a", limits: amounts(7, 2) }), podView({ nodeName: "n-cool-b", limits: amounts(7, 2) })];
const view = clusterViewOf(nodes, running);
// Two replicas of one owner on host-3, one on host-2, none on host-1.
const OWNER = "ReplicaSet/payments/api";
const spreadPods = [
  podView({ nodeName: "n-cool-a", ownerKey: OWNER, limits: amounts(1, 1) }),
  podView({ nodeName: "n-cool-b", ownerKey: OWNER, limits: amounts(1, 1) }),
  podView({ nodeName: "n-warm", ownerKey: OWNER, limits: amounts(1, 1) }),
];
const spreadView = clusterViewOf(nodes, spreadPods);
const replica = podView({ uid: "replica-new", ownerKey: OWNER, limits: amounts(1, 1), boundAtMs: undefined });
const incoming = (cpu: number) => podView({ uid: `incoming-${cpu}`, limits: amounts(cpu, 1), boundAtMs: undefined });

/** Both verbs' answers as plain data, to compare a shared index's answers with a fresh one's. */
function answers(ctx: PlacementContext, meta: PodMeta = pod) {
  const f = filterNodes(meta, names, ctx);
  return {
    passed: f.passed,
    failed: [...f.failed].map(([n, r]) => [n, formatReasons(r)]),
    unresolvable: [...f.unresolvable].map(([n, r]) => [n, formatReasons(r)]),
    scores: prioritizeNodes(meta, names, ctx).map((s) => [s.node, s.score]),
  };
}

describe("PlacementIndex", () => {
  const cases: Array<{ name: string; ctx: (nowMs: number) => PlacementContext; meta?: PodMeta }> = [
    { name: "no cluster view", ctx: (nowMs) => ({ inventory, policy: DEFAULT_POLICY, nowMs }) },
    {
      name: "a cluster view, incoming pod under the stacked cap",
      ctx: (nowMs) => ({ inventory, policy: DEFAULT_POLICY, nowMs, cluster: { view, pod: incoming(2) } }),
    },
    {
      name: "a cluster view, incoming pod over the stacked cap",
      ctx: (nowMs) => ({ inventory, policy: DEFAULT_POLICY, nowMs, cluster: { view, pod: incoming(3) } }),
    },
    {
      name: "an exempt pod",
      ctx: (nowMs) => ({ inventory, policy: DEFAULT_POLICY, nowMs }),
      meta: { ...pod, ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" },
    },
    {
      name: "a cluster view and an exempt pod",
      ctx: (nowMs) => ({ inventory, policy: DEFAULT_POLICY, nowMs, cluster: { view, pod: incoming(3) } }),
      meta: { ...pod, ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" },
    },
    {
      name: "a cluster view and required host spread",
      ctx: (nowMs) => ({ inventory, policy: DEFAULT_POLICY, nowMs, cluster: { view: spreadView, pod: replica } }),
      meta: { ...pod, annotations: { "hvx.io/host-spread": "required" } },
    },
    {
      name: "a cluster view and a re-sent pod already bound on a node",
      ctx: (nowMs) => ({ inventory, policy: DEFAULT_POLICY, nowMs, cluster: { view: spreadView, pod: spreadPods[0]! } }),
    },
    {
      name: "a cluster view last heard from 10 minutes ago",
      ctx: (nowMs) => ({
        inventory,
        policy: DEFAULT_POLICY,
        nowMs,
        cluster: { view: { ...view, lastEventMs: NOW_MS - 600_000 }, pod: incoming(3) },
      }),
    },
  ];
  for (const c of cases) {
    it(`given ${c.name}, answers through one shared index exactly what a fresh index answers, second after second`, () => {
      const latest = new LatestPlacementIndex();
      // 14.4 s, 14.9 s, 15.6 s, 16.2 s after the sample: the printed ages go 14, 15, 16.
      for (const offsetMs of [400, 900, 1600, 2200]) {
        const ctx = c.ctx(NOW_MS + offsetMs);
        const shared = { ...ctx, index: latest.indexFor(ctx.inventory, ctx.cluster?.view, ctx.policy) };
        expect(answers(shared, c.meta)).to.deep.equal(answers(ctx, c.meta));
      }
    });
  }

  it("given requests a second apart, the reasons print the sample's age at each request, not at the first", () => {
    const latest = new LatestPlacementIndex();
    const at = (nowMs: number) => {
      const ctx = { inventory, policy: DEFAULT_POLICY, nowMs };
      return formatReasons(
        filterNodes(pod, names, { ...ctx, index: latest.indexFor(inventory, undefined, DEFAULT_POLICY) }).unresolvable.get("n-hot")!,
      );
    };
    expect(at(NOW_MS)).to.contain("(sampled 14s ago)");
    expect(at(NOW_MS + 1000)).to.contain("(sampled 15s ago)");
  });

  describe("given a new view of the same inventory and policy, derived from the previous index", () => {
    const spread = { ...pod, annotations: { "hvx.io/host-spread": "required" } };
    const asked: Array<{ pod: PodView; meta: PodMeta }> = [
      { pod: incoming(2), meta: pod },
      { pod: incoming(3), meta: pod },
      { pod: replica, meta: spread },
      { pod: incoming(3), meta: { ...pod, ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" } },
    ];
    const hotter = inventoryOf(
      [...inventory.hosts.values()].map((h) =>
        h.id === "host-2" ? hostView({ id: "host-2", name: "esx-warm", metrics: { cpuReadyPercent: 12 } }) : h,
      ),
      [...inventory.vms.values()],
    );
    const withoutWarm = new Map([...spreadView.nodes].filter(([n]) => n !== "n-warm"));
    const steps: Array<{
      name: string;
      next: (v: ClusterView) => ClusterView;
      inventory?: InventoryView;
      reused: string[];
      rebuilt: string[];
      sums?: string[];
    }> = [
      {
        // One more core on host-3 puts incoming(2) over the stacked cap: a reused host-3 entry would pass it.
        name: "one node's pod list changed",
        next: (v) => withBinding(v, podView({ uid: "bound-1", ownerKey: OWNER, limits: amounts(1, 1) }), "n-cool-a", NOW_MS),
        reused: ["host-1", "host-2"],
        rebuilt: ["host-3"],
      },
      {
        name: "a pod added by the in-flight ledger",
        next: (v) => withInFlight(v, [{ pod: { ...replica, uid: "in-flight-1", nodeName: "n-warm", boundAtMs: NOW_MS } }]),
        reused: ["host-1", "host-3"],
        rebuilt: ["host-2"],
      },
      {
        name: "a node removed",
        next: (v) => ({ ...v, nodes: withoutWarm }),
        reused: [],
        rebuilt: ["host-1", "host-2", "host-3"],
        sums: ["host-1", "host-3"],
      },
      {
        name: "a node added back",
        next: (v) => ({ ...v, nodes: spreadView.nodes }),
        reused: [],
        rebuilt: ["host-1", "host-2", "host-3"],
        sums: ["host-1", "host-3"],
      },
      {
        name: "the inventory changed",
        next: (v) => v,
        inventory: hotter,
        reused: [],
        rebuilt: ["host-1", "host-2", "host-3"],
        sums: ["host-1", "host-2", "host-3"],
      },
    ];
    it("answers at every step exactly what a fresh index answers, and reuses only the host entries whose pod lists are unchanged", () => {
      const latest = new LatestPlacementIndex();
      let current: ClusterView = spreadView;
      let inv: InventoryView = inventory;
      let previous = latest.indexFor(inv, current, DEFAULT_POLICY);
      const askAll = (index: PlacementIndex) => {
        for (const a of asked) {
          const ctx: PlacementContext = {
            inventory: inv,
            policy: DEFAULT_POLICY,
            nowMs: NOW_MS + 500,
            cluster: { view: current, pod: a.pod },
          };
          expect(answers({ ...ctx, index }, a.meta)).to.deep.equal(answers(ctx, a.meta));
        }
      };
      askAll(previous);
      for (const step of steps) {
        const hostIds = ["host-1", "host-2", "host-3"];
        const entriesBefore = new Map(hostIds.map((id) => [id, previous.hostEntry(id)]));
        const nodesBefore = current.nodes;
        current = step.next(current);
        inv = step.inventory ?? inv;
        const index = latest.indexFor(inv, current, DEFAULT_POLICY);
        // Pod lists alone changed: the same index, advanced in place; else a new one.
        const podsOnly = step.inventory === undefined && current.nodes === nodesBefore;
        if (podsOnly) expect(index, step.name).to.equal(previous);
        else expect(index, step.name).to.not.equal(previous);
        for (const id of step.reused) expect(index.hostEntry(id), `${step.name}: ${id}`).to.equal(entriesBefore.get(id));
        for (const id of step.rebuilt) expect(index.hostEntry(id), `${step.name}: ${id}`).to.not.equal(entriesBefore.get(id));
        // Pod lists and sums of hosts whose nodes and pods are the same carry over a new mapping or inventory too.
        for (const id of step.sums ?? [])
          expect(index.hostEntry(id)!.totals, `${step.name}: ${id}`).to.equal(entriesBefore.get(id)!.totals);
        askAll(index);
        previous = index;
      }
    });
  });

  describe("given pod-list changes, patches the changed host's entry to what a fresh index computes", () => {
    const plain = (index: PlacementIndex, hostId: string) => {
      const e = index.hostEntry(hostId)!;
      const sorted = (m: ReadonlyMap<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
      const t = e.totals;
      return {
        pods: e.podsOnHost,
        pending: e.pending,
        projected: e.projected.metrics,
        sums: [t.cpuLimitsMilli, t.memoryLimitsBytes, t.cpuDemandMilli, t.cpuDemandMilliByClass],
        uids: [...t.uids].sort(),
        replicas: sorted(t.replicasByOwner),
        burst: sorted(t.burstLimitsMilliByOwner),
      };
    };
    // Bound at NOW_MS, after host-3's sample (14 s before it in the fixtures): the burst guard counts them as pending.
    const fresh = (uid: string, over: Partial<PodView> = {}) =>
      podView({ uid, ownerKey: OWNER, limits: amounts(1, 1), expectedDemand: amounts(0.5, 1), ...over });
    const replaced = (v: ClusterView, node: string, pods: (list: readonly PodView[]) => PodView[]): ClusterView => {
      const podsByNode = new Map(v.podsByNode);
      podsByNode.set(node, pods(v.podsByNode.get(node) ?? []));
      return { ...v, podsByNode };
    };
    const steps: Array<{ name: string; next: (v: ClusterView) => ClusterView }> = [
      { name: "a binding", next: (v) => withBinding(v, fresh("b-1"), "n-cool-a", NOW_MS) },
      { name: "a second binding on the host's other node", next: (v) => withBinding(v, fresh("b-2"), "n-cool-b", NOW_MS) },
      { name: "a deletion", next: (v) => replaced(v, "n-cool-a", (l) => l.filter((p) => p.uid !== "b-1")) },
      {
        name: "a pod turned terminal",
        next: (v) => replaced(v, "n-cool-b", (l) => l.map((p) => (p.uid === "b-2" ? { ...p, terminal: true } : p))),
      },
      {
        name: "a pod in flight on one node while the informer shows it bound on the other",
        next: (v) =>
          withInFlight(withBinding(v, fresh("b-3"), "n-cool-a", NOW_MS), [
            { pod: { ...fresh("b-3"), nodeName: "n-cool-b", boundAtMs: NOW_MS } },
          ]),
      },
      { name: "one of the two gone", next: (v) => replaced(v, "n-cool-a", (l) => l.filter((p) => p.uid !== "b-3")) },
      { name: "a pod without an owner or uid", next: (v) => withBinding(v, podView({ uid: "", ownerKey: undefined }), "n-cool-a", NOW_MS) },
    ];
    for (const policy of [DEFAULT_POLICY, policyWith({ burstGuard: { enabled: false, settleSeconds: 60 } })]) {
      it(`with the burst guard ${policy.burstGuard.enabled ? "on" : "off"}: after each change, the same index, its host-3 entry equal to a fresh index's`, () => {
        const latest = new LatestPlacementIndex();
        let current: ClusterView = spreadView;
        const index = latest.indexFor(inventory, current, policy);
        index.hostEntry("host-3");
        const uids = ["b-1", "b-2", "b-3", "never-listed"];
        const listed = (i: PlacementIndex) => uids.map((uid) => i.listsUid(uid));
        listed(index);
        for (const step of steps) {
          const before = index.hostEntry("host-3");
          current = step.next(current);
          expect(latest.indexFor(inventory, current, policy), step.name).to.equal(index);
          expect(index.hostEntry("host-3"), step.name).to.not.equal(before);
          const fresh = new PlacementIndex(inventory, policy, current);
          expect(plain(index, "host-3"), step.name).to.deep.equal(plain(fresh, "host-3"));
          expect(listed(index), step.name).to.deep.equal(listed(fresh));
        }
      });
    }
  });

  it("given one group's pods whose candidates' fewest replicas moves, re-scores kept decisions to a fresh index's answers", () => {
    const index = new LatestPlacementIndex().indexFor(inventory, spreadView, DEFAULT_POLICY);
    const scores = (uid: string, candidates: string[], shared: boolean) => {
      const cluster = { view: spreadView, pod: { ...replica, uid } };
      const ctx: PlacementContext = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS + 500, cluster, ...(shared ? { index } : {}) };
      return new Map(
        prioritizeNodes(
          pod,
          candidates.map((name) => ({ name })),
          ctx,
        ).map((s) => [s.node, s.score]),
      );
    };
    // Fewest replicas on the candidates' hosts: 1 with host-2's n-warm, 2 with host-3's alone, 0 with host-1's n-hot.
    const rounds: Array<[string, string[]]> = [
      ["r-1", ["n-warm", "n-cool-a"]],
      ["r-2", ["n-cool-a", "n-cool-b"]],
      ["r-3", ["n-warm", "n-cool-a"]],
      ["r-4", ["n-cool-a", "n-cool-b"]],
      ["r-5", ["n-hot", "n-cool-a"]],
    ];
    const coolA = rounds.map(([uid, candidates]) => {
      const shared = scores(uid, candidates, true);
      expect([...shared], uid).to.deep.equal([...scores(uid, candidates, false)]);
      return shared.get("n-cool-a");
    });
    expect(coolA[0]).to.be.lessThan(coolA[1]!);
  });

  it("given a new inventory and a view with a binding and a deletion, the next index lists the bound uid and not the deleted one", () => {
    const latest = new LatestPlacementIndex();
    const first = latest.indexFor(inventory, spreadView, DEFAULT_POLICY);
    const gone = spreadPods[0]!.uid;
    expect([first.listsUid(gone), first.listsUid("b-new")]).to.deep.equal([true, false]);
    const bound = withBinding(spreadView, podView({ uid: "b-new" }), "n-hot", NOW_MS);
    const next = { ...bound, podsByNode: new Map([...bound.podsByNode].map(([n, l]) => [n, l.filter((p) => p.uid !== gone)])) };
    const polled = { ...inventory };
    const second = latest.indexFor(polled, next, DEFAULT_POLICY);
    expect(second).to.not.equal(first);
    expect([second.listsUid(gone), second.listsUid("b-new")]).to.deep.equal([false, true]);
    // The first index handed its table over: asked again, it answers for its own view.
    expect([first.listsUid(gone), first.listsUid("b-new")]).to.deep.equal([true, false]);
  });

  it("given a view that differs in one host's pods, adopts the previous index's decisions elsewhere and decides that host's nodes again", () => {
    const latest = new LatestPlacementIndex();
    const ctxOf = (v: ClusterView): PlacementContext => ({
      inventory,
      policy: DEFAULT_POLICY,
      nowMs: NOW_MS + 500,
      cluster: { view: v, pod: incoming(2) },
    });
    const before = filterNodes(pod, names, { ...ctxOf(view), index: latest.indexFor(inventory, view, DEFAULT_POLICY) });
    expect(before.passed).to.include("n-cool-a");
    // One more core bound on host-3 puts incoming(2) over its stacked cap: an adopted host-3 decision would still pass it.
    const next = withBinding(view, podView({ uid: "bound-1", limits: amounts(1, 1) }), "n-cool-a", NOW_MS);
    const index = latest.indexFor(inventory, next, DEFAULT_POLICY);
    const after = filterNodes(pod, names, { ...ctxOf(next), index });
    expect(after.passed).to.not.include("n-cool-a");
    expect(answers({ ...ctxOf(next), index })).to.deep.equal(answers(ctxOf(next)));
    const at = (name: string) => names.findIndex((n) => n.name === name);
    expect(after.decisions[at("n-warm")]).to.equal(before.decisions[at("n-warm")]);
    expect(after.decisions[at("n-hot")]).to.equal(before.decisions[at("n-hot")]);
    expect(after.decisions[at("n-cool-b")]).to.not.equal(before.decisions[at("n-cool-b")]);
  });

  it("given the same snapshots and policy, answers the same index; a new inventory, cluster view or policy builds a new one", () => {
    const latest = new LatestPlacementIndex();
    const first = latest.indexFor(inventory, view, DEFAULT_POLICY);
    expect(latest.indexFor(inventory, view, DEFAULT_POLICY)).to.equal(first);
    const changes = [
      latest.indexFor(inventoryOf([...inventory.hosts.values()], [...inventory.vms.values()]), view, DEFAULT_POLICY),
      latest.indexFor(inventory, withBinding(view, incoming(1), "n-warm", NOW_MS), DEFAULT_POLICY),
      latest.indexFor(inventory, view, policyWith({ staleMetrics: "reject" })),
    ];
    for (const next of changes) expect(next).to.not.equal(first);
    expect(Object.isFrozen(first)).to.equal(true);
  });

  it("given a poll with the same VMs in new objects, judges each node by the new poll's VM sample, as a fresh index does", () => {
    // The poll after: the same hosts and VMs (ids, names, power states, hosts) in new objects; n-cool-a's VM now waits 30 % ready.
    const vms = [...inventory.vms.values()].map((vm) =>
      vm.name === "n-cool-a" ? { ...vm, metrics: { ...vm.metrics!, cpuReadyPercent: 30 } } : { ...vm },
    );
    const polled = inventoryOf([...inventory.hosts.values()], vms);
    const ctxOf = (inv: InventoryView): PlacementContext => ({
      inventory: inv,
      policy: DEFAULT_POLICY,
      nowMs: NOW_MS,
      cluster: { view, pod: incoming(1) },
    });
    const latest = new LatestPlacementIndex();
    expect(filterNodes(pod, names, { ...ctxOf(inventory), index: latest.indexFor(inventory, view, DEFAULT_POLICY) }).passed).to.include(
      "n-cool-a",
    );
    const index = latest.indexFor(polled, view, DEFAULT_POLICY);
    expect(filterNodes(pod, names, { ...ctxOf(polled), index }).passed).to.not.include("n-cool-a");
    expect(answers({ ...ctxOf(polled), index })).to.deep.equal(answers(ctxOf(polled)));
  });

  it("given an index built for another inventory, decides on the context's inventory", () => {
    const cooler = inventoryOf(
      [hostView({ id: "host-1", name: "esx-hot" })],
      [vmView({ id: "vm-1", name: "n-hot", hostId: "host-1", biosUuid: undefined })],
    );
    const stale = new PlacementIndex(inventory, DEFAULT_POLICY, undefined);
    const out = filterNodes(pod, [{ name: "n-hot" }], { inventory: cooler, policy: DEFAULT_POLICY, nowMs: NOW_MS, index: stale });
    expect(out.passed).to.deep.equal(["n-hot"]);
  });

  it("given nodes whose only reason is their host's, shares one reason list between them and renders it once per snapshot", () => {
    const index = new PlacementIndex(inventory, DEFAULT_POLICY, view);
    const ctx: PlacementContext = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS, cluster: { view, pod: incoming(3) }, index };
    const failed = filterNodes(podMetaOf(incoming(3)), names, ctx).failed;
    const a = failed.get("n-cool-a")!;
    expect(a.map((r) => r.code)).to.deep.equal(["stacked_overcommit"]);
    expect(failed.get("n-cool-b")).to.equal(a);
    let renders = 0;
    const render = (r: typeof a) => (renders++, formatReasons(r));
    const again = filterNodes(podMetaOf(incoming(3)), names, ctx).failed;
    for (const list of [...failed.values(), ...again.values()]) index.textOf(list, render);
    expect(renders).to.equal(1);
  });

  it("given candidate lists that change between requests, counts the fewest replicas on each list's hosts, as a fresh index does", () => {
    const latest = new LatestPlacementIndex();
    const meta = { ...pod, annotations: { "hvx.io/host-spread": "required" } };
    // host-1: no replica, host-2: one, host-3: two; the fewest on the candidates' hosts is 0, 1, 0, 2, 1.
    const lists = [names, names.slice(1), names, names.slice(2, 4), names.slice(1)];
    for (const list of lists) {
      const ctx: PlacementContext = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS, cluster: { view: spreadView, pod: replica } };
      const shared = { ...ctx, index: latest.indexFor(inventory, spreadView, DEFAULT_POLICY) };
      const of = (c: PlacementContext) => {
        const f = filterNodes(meta, list, c);
        return {
          passed: f.passed,
          failed: [...f.failed].map(([n, r]) => [n, formatReasons(r)]),
          scores: prioritizeNodes(meta, list, c).map((s) => [s.node, s.score]),
        };
      };
      expect(of(shared)).to.deep.equal(of(ctx));
    }
  });

  it("given every host hot, the all-rejected valve answers through one shared index exactly what it answers with a fresh one, request after request", () => {
    const hot = inventoryOf(
      [
        hostView({ id: "host-1", name: "esx-hot", metrics: { cpuReadyPercent: 14 } }),
        hostView({ id: "host-2", name: "esx-warm", metrics: { cpuReadyPercent: 11 } }),
      ],
      [
        vmView({ id: "vm-1", name: "n-hot", hostId: "host-1", biosUuid: undefined }),
        vmView({ id: "vm-2", name: "n-warm", hostId: "host-2", biosUuid: undefined }),
      ],
    );
    const hotView = clusterViewOf(
      ["n-hot", "n-warm"].map((name) => nodeView({ name })),
      [],
    );
    const latest = new LatestPlacementIndex();
    const lists = [names.slice(0, 2), names.slice(0, 1), names.slice(0, 2)];
    for (const [i, list] of lists.entries()) {
      for (const setting of ["pass-coolest", "reject"] as const) {
        for (const cluster of [undefined, { view: hotView, pod: incoming(1) }]) {
          const ctx: PlacementContext = {
            inventory: hot,
            policy: DEFAULT_POLICY,
            nowMs: NOW_MS + 600 * i,
            ...(cluster ? { cluster } : {}),
          };
          const shared = { ...ctx, index: latest.indexFor(hot, cluster?.view, DEFAULT_POLICY) };
          const of = (c: PlacementContext) => {
            const memo = new RequestMemo(list);
            const out = applyAllRejectedValve(filterNodes(pod, list, c, memo), pod, list, c, setting, memo);
            return { passed: out.passed, valve: out.valve, unresolvable: [...out.unresolvable].map(([n, r]) => [n, formatReasons(r)]) };
          };
          const fresh = of(ctx);
          expect(fresh.valve).to.not.equal(undefined);
          expect(of(shared)).to.deep.equal(fresh);
        }
      }
    }
  });
});

describe("RequestMemo.leastOnCandidates", () => {
  const threeHosts = clusterViewOf(
    ["n-hot", "n-warm", "n-cool-a"].map((name) => nodeView({ name })),
    [],
  );
  const index = new PlacementIndex(inventory, DEFAULT_POLICY, threeHosts);
  const candidates = ["n-hot", "n-warm", "n-cool-a"].map((name) => ({ name }));
  const measured = (values: Record<string, number | undefined>, floor?: number) => {
    const asked: string[] = [];
    const least = new RequestMemo(candidates).leastOnCandidates(
      index,
      DEFAULT_POLICY,
      "rule",
      (entry) => {
        asked.push(entry.host.id);
        return values[entry.host.id];
      },
      floor,
    );
    return { least, asked };
  };

  it("given no floor, measures every candidate host and returns the least, skipping hosts without an opinion", () => {
    expect(measured({ "host-1": 4, "host-2": undefined, "host-3": 2 })).to.deep.equal({ least: 2, asked: ["host-1", "host-2", "host-3"] });
  });

  it("given a floor the second host reaches, stops measuring there", () => {
    expect(measured({ "host-1": 4, "host-2": 0, "host-3": 2 }, 0)).to.deep.equal({ least: 0, asked: ["host-1", "host-2"] });
  });

  it("given a floor no host reaches, measures them all", () => {
    expect(measured({ "host-1": 4, "host-2": 3, "host-3": 2 }, 0)).to.deep.equal({ least: 2, asked: ["host-1", "host-2", "host-3"] });
  });
});
