import { expect } from "chai";
import fc from "fast-check";
import type { NodeView, PodView, ResourceAmounts } from "../../src/model/cluster.js";
import { decideNode, RequestMemo, type PlacementContext } from "../../src/placement/decide-node.js";
import type { PodMeta } from "../../src/placement/exemption.js";
import { filterNodes } from "../../src/placement/filter-nodes.js";
import { HOST_SPREAD_ANNOTATION } from "../../src/placement/host-spread.js";
import { judgePreemptionCandidates, type PreemptionCandidate } from "../../src/placement/preemption-candidates.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// Three 32-core hosts: esx-cool-1 (node-1a, node-1b), esx-hot (node-2, cpu ready 14 % >= 10 %),
// esx-cool-3 (node-3); node-x is a Kubernetes node with no VM behind it. Node names differ from
// VM names: only the providerID kept in the cluster view maps them (kube-scheduler sends names).
const uuid = (n: number) => `4226${n}e63-e4e0-c681-b5dd-f69dfa98103${n}`;
const inventory = inventoryOf(
  [
    hostView({ id: "host-1", name: "esx-cool-1" }),
    hostView({ id: "host-2", name: "esx-hot", metrics: { cpuReadyPercent: 14 } }),
    hostView({ id: "host-3", name: "esx-cool-3" }),
  ],
  [
    vmView({ id: "vm-1", name: "vm-k8s-1", hostId: "host-1", biosUuid: uuid(1) }),
    vmView({ id: "vm-2", name: "vm-k8s-2", hostId: "host-1", biosUuid: uuid(2) }),
    vmView({ id: "vm-3", name: "vm-k8s-3", hostId: "host-2", biosUuid: uuid(3) }),
    vmView({ id: "vm-4", name: "vm-k8s-4", hostId: "host-3", biosUuid: uuid(4) }),
  ],
);
const VM_OF: Record<string, number> = { "node-1a": 1, "node-1b": 2, "node-2": 3, "node-3": 4 };
const nodesWith = (allocatable: ResourceAmounts): NodeView[] => [
  ...Object.entries(VM_OF).map(([name, n]) => nodeView({ name, providerID: `vsphere://${uuid(n)}`, allocatable })),
  nodeView({ name: "node-x", providerID: "vsphere://00000000-0000-0000-0000-000000000000", allocatable }),
];

const OWNER = "ReplicaSet/payments/api-7d9";
const incoming = podView({ uid: "incoming", ownerKey: OWNER, limits: amounts(2, 2), expectedDemand: amounts(1, 1), boundAtMs: undefined });
/** A pod bound an hour ago (the burst guard ignores it) with `cpu` CPUs of limits. */
const running = (uid: string, nodeName: string, cpu: number, over: Partial<PodView> = {}) =>
  podView({ uid, nodeName, limits: amounts(cpu, 1), ...over });
const meta = (over: Partial<PodMeta> = {}) => podMetaOf(incoming, over);
const BIG = amounts(64, 256);

function ctxOf(pods: PodView[], allocatable = amounts(7.8, 30)): PlacementContext {
  return {
    inventory,
    policy: DEFAULT_POLICY,
    nowMs: NOW_MS,
    cluster: { view: clusterViewOf(nodesWith(allocatable), pods), pod: incoming },
  };
}
const cand = (node: string, ...victimUids: string[]): PreemptionCandidate => ({ node, victimUids });
const verdictOf = (out: ReturnType<typeof judgePreemptionCandidates>, node: string) => out.verdicts.find((v) => v.node === node)!;

describe("judgePreemptionCandidates: limit overcommit with the victims gone", () => {
  // node-1a: 8 + 6 + 2 (incoming) = 16 CPUs / 7.8 = 2.05 > 2.0
  const pods = [running("big", "node-1a", 8), running("small", "node-1a", 6), running("tiny", "node-1a", 0.1)];

  it("given victims whose limits make room on the node, keeps it", () => {
    const out = judgePreemptionCandidates(meta(), [cand("node-1a", "big")], ctxOf(pods));
    expect(out.kept).to.deep.equal(["node-1a"]);
    expect(verdictOf(out, "node-1a")).to.include({ keep: true, removedVictims: 1 });
  });

  it("given victims that do not make enough room, drops the node with the limit reason", () => {
    const out = judgePreemptionCandidates(meta(), [cand("node-1a", "tiny")], ctxOf(pods));
    expect(out.kept).to.deep.equal([]);
    expect(verdictOf(out, "node-1a").reasons.map((r) => r.code)).to.deep.equal(["limit_overcommit"]);
  });

  it("judges the node as the filter does when no victim is given", () => {
    const ctx = ctxOf(pods);
    const filtered = filterNodes(meta(), [{ name: "node-1a" }], ctx);
    const out = judgePreemptionCandidates(meta(), [cand("node-1a")], ctx);
    expect(out.kept).to.deep.equal(filtered.passed);
    expect(verdictOf(out, "node-1a").reasons).to.deep.equal(filtered.failed.get("node-1a"));
  });

  it("given a victim UID the cluster view does not hold on that node, takes nothing away for it and reports it", () => {
    const out = judgePreemptionCandidates(meta(), [cand("node-1a", "not-cached")], ctxOf(pods));
    expect(out.kept).to.deep.equal([]);
    expect(verdictOf(out, "node-1a")).to.deep.include({ removedVictims: 0, unknownVictims: ["not-cached"] });
  });

  it("given a UID that lives on another node, does not take it away from this one", () => {
    const elsewhere = [...pods, running("on-1b", "node-1b", 8)];
    const out = judgePreemptionCandidates(meta(), [cand("node-1a", "on-1b")], ctxOf(elsewhere));
    expect(out.kept).to.deep.equal([]);
    expect(verdictOf(out, "node-1a").unknownVictims).to.deep.equal(["on-1b"]);
  });

  it("judges every candidate in its own world: one node's victims never help another", () => {
    const both = [...pods, running("b1", "node-3", 8), running("b2", "node-3", 6)];
    const out = judgePreemptionCandidates(meta(), [cand("node-3"), cand("node-1a", "big", "b1")], ctxOf(both));
    // "b1" is not on node-1a, so only "big" goes there; node-3 keeps both its pods.
    expect(out.kept).to.deep.equal(["node-1a"]);
    expect(verdictOf(out, "node-1a").unknownVictims).to.deep.equal(["b1"]);
  });

  it("keeps the order in which the candidates were sent", () => {
    const out = judgePreemptionCandidates(meta(), [cand("node-3"), cand("node-1b"), cand("node-1a", "big")], ctxOf(pods));
    expect(out.kept).to.deep.equal(["node-3", "node-1b", "node-1a"]);
  });

  it("never mutates the shared snapshot", () => {
    const ctx = ctxOf(pods);
    const view = ctx.cluster!.view;
    const before = view.podsByNode.get("node-1a");
    const copy = [...before!];
    judgePreemptionCandidates(meta(), [cand("node-1a", "big", "small")], ctx);
    expect(view.podsByNode.get("node-1a")).to.equal(before);
    expect(before).to.deep.equal(copy);
    expect(filterNodes(meta(), [{ name: "node-1a" }], ctx).passed).to.deep.equal([]);
  });
});

describe("judgePreemptionCandidates: host rules", () => {
  it("given a node on a hot host, drops it whatever its victims, with the host reason", () => {
    const pods = [running("h1", "node-2", 8), running("h2", "node-2", 8)];
    const out = judgePreemptionCandidates(meta(), [cand("node-2", "h1", "h2")], ctxOf(pods));
    expect(out.kept).to.deep.equal([]);
    expect(verdictOf(out, "node-2").reasons.map((r) => r.code)).to.deep.equal(["host_metric"]);
  });

  it("given a node hvx cannot map to a host, drops it (the filter would pass it with no opinion)", () => {
    const ctx = ctxOf([running("x1", "node-x", 1)]);
    expect(filterNodes(meta(), [{ name: "node-x" }], ctx).passed).to.deep.equal(["node-x"]);
    const out = judgePreemptionCandidates(meta(), [cand("node-x", "x1"), cand("node-unknown")], ctx);
    expect(out.kept).to.deep.equal([]);
    expect(verdictOf(out, "node-x").reasons.map((r) => r.code)).to.deep.equal(["node_unmapped"]);
    expect(verdictOf(out, "node-unknown").reasons.map((r) => r.code)).to.deep.equal(["node_unmapped"]);
  });

  it("given a pod exempt from the host rules (DaemonSet), keeps nodes on hot and unmapped hosts, as the filter lets it in", () => {
    const ds = meta({ ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" });
    const out = judgePreemptionCandidates(ds, [cand("node-2"), cand("node-x")], ctxOf([]));
    expect(out.kept).to.deep.equal(["node-2", "node-x"]);
  });

  it("given stale metrics, follows the filter: kept with staleMetrics pass, dropped with reject", () => {
    const stale = inventoryOf(
      [hostView({ id: "host-3", name: "esx-cool-3", metrics: { sampledAtMs: NOW_MS - 3_600_000 } })],
      [vmView({ id: "vm-4", name: "vm-k8s-4", hostId: "host-3", biosUuid: uuid(4) })],
    );
    const ctx = { ...ctxOf([]), inventory: stale };
    expect(judgePreemptionCandidates(meta(), [cand("node-3")], ctx).kept).to.deep.equal(["node-3"]);
    const strict = { ...ctx, policy: { ...DEFAULT_POLICY, staleMetrics: "reject" as const } };
    const out = judgePreemptionCandidates(meta(), [cand("node-3")], strict);
    expect(out.kept).to.deep.equal([]);
    expect(verdictOf(out, "node-3").reasons.map((r) => r.code)).to.deep.equal(["metrics_stale"]);
  });

  it("given no cluster view, applies only the host rules: victims change nothing, limits are not checked", () => {
    const ctx: PlacementContext = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS };
    // By name only, without the cluster view: the VM names are the node names here.
    const out = judgePreemptionCandidates(meta(), [cand("vm-k8s-1", "v1"), cand("vm-k8s-3", "v3"), cand("node-1a", "v4")], ctx);
    expect(out.kept).to.deep.equal(["vm-k8s-1"]);
    expect(verdictOf(out, "vm-k8s-3").reasons.map((r) => r.code)).to.deep.equal(["host_metric"]);
    expect(verdictOf(out, "node-1a").reasons.map((r) => r.code)).to.deep.equal(["node_unmapped"]);
    expect(out.verdicts.every((v) => v.removedVictims === 0 && v.unknownVictims.length === 0)).to.equal(true);
  });
});

describe("judgePreemptionCandidates: the victims leave their ESXi host too", () => {
  it("given the stacked cap exceeded on the host, keeps a node whose victims bring the host back under it", () => {
    // host-1: 70 + 58 + 2 (incoming) = 130 CPUs / 32 cores = 4.06 > 4.0; without the 10-CPU victim 3.75.
    const pods = [running("a1", "node-1a", 60), running("a2", "node-1a", 10), running("b1", "node-1b", 58)];
    const ctx = ctxOf(pods, BIG);
    expect(filterNodes(meta(), [{ name: "node-1a" }, { name: "node-1b" }], ctx).passed).to.deep.equal([]);
    const out = judgePreemptionCandidates(meta(), [cand("node-1a", "a2"), cand("node-1b")], ctx);
    expect(out.kept).to.deep.equal(["node-1a"]);
    expect(verdictOf(out, "node-1b").reasons.map((r) => r.code)).to.deep.equal(["stacked_overcommit"]);
  });

  it("given a required host spread, counts the replicas that are victims out of the host", () => {
    const spread = meta({ annotations: { [HOST_SPREAD_ANNOTATION]: "required" } });
    // host-1 holds 2 replicas (on node-1a and node-1b), host-3 none: 2 + 1 - 0 > max skew 1.
    const replicas = [
      running("r1", "node-1a", 1, { ownerKey: OWNER }),
      running("r2", "node-1a", 1, { ownerKey: OWNER }),
      running("r3", "node-1b", 1, { ownerKey: OWNER }),
    ];
    const ctx = ctxOf(replicas, BIG);
    expect(
      filterNodes(spread, [{ name: "node-1a" }, { name: "node-3" }], ctx)
        .failed.get("node-1a")!
        .map((r) => r.code),
    ).to.deep.equal(["host_spread"]);
    const one = judgePreemptionCandidates(spread, [cand("node-1a", "r1"), cand("node-3")], ctx);
    expect(verdictOf(one, "node-1a").reasons.map((r) => r.code)).to.deep.equal(["host_spread"]);
    // Both replicas of node-1a gone: host-1 keeps r3 only, 1 + 1 - 0 = 2 > 1 still; all three would be needed.
    const two = judgePreemptionCandidates(spread, [cand("node-1a", "r1", "r2"), cand("node-3")], ctx);
    expect(verdictOf(two, "node-1a").reasons.map((r) => r.code)).to.deep.equal(["host_spread"]);
    const alone = ctxOf(replicas.slice(0, 2), BIG);
    expect(judgePreemptionCandidates(spread, [cand("node-1a", "r1", "r2"), cand("node-3")], alone).kept).to.deep.equal([
      "node-1a",
      "node-3",
    ]);
  });

  it("given a victim bound after the last sample, takes its expected demand off the host's projected usage", () => {
    // 20 CPUs pending on a 32-core host at 30 %: 30 + 62.5 = 92.5 % >= 90 % (hot by projection).
    const fresh = running("fresh", "node-3", 1, { boundAtMs: NOW_MS - 5_000, expectedDemand: amounts(20, 1) });
    const ctx = ctxOf([fresh], BIG);
    const filtered = filterNodes(meta(), [{ name: "node-3" }], ctx);
    expect(filtered.unresolvable.get("node-3")!.map((r) => r.code)).to.deep.equal(["host_metric"]);
    expect(judgePreemptionCandidates(meta(), [cand("node-3", "fresh")], ctx).kept).to.deep.equal(["node-3"]);
    expect(judgePreemptionCandidates(meta(), [cand("node-3")], ctx).kept).to.deep.equal([]);
  });
});

describe("judgePreemptionCandidates: same answers as judging a copied view from scratch", () => {
  // The shortcuts (one-key overlay, totals and pending demand by subtraction, one spread
  // baseline per request) must change nothing: compare with a fully materialised view per
  // candidate and a fresh RequestMemo.
  function fromScratch(pod: PodMeta, candidates: readonly PreemptionCandidate[], ctx: PlacementContext) {
    const identities = candidates.map((c) => ({ name: c.node }));
    return candidates.map((c) => {
      const view = ctx.cluster!.view;
      const gone = new Set(c.victimUids);
      const podsByNode = new Map(view.podsByNode);
      podsByNode.set(
        c.node,
        (view.podsByNode.get(c.node) ?? []).filter((p) => !gone.has(p.uid)),
      );
      const d = decideNode(
        { name: c.node },
        pod,
        { ...ctx, cluster: { ...ctx.cluster!, view: { ...view, podsByNode } } },
        new RequestMemo(identities),
      );
      return { node: c.node, verdict: d.verdict, reasons: d.reasons, score: d.score };
    });
  }

  it("on random clusters, victims, owners and binding times", () => {
    const names = Object.keys(VM_OF);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            node: fc.constantFrom(...names),
            cpu: fc.integer({ min: 0, max: 30 }),
            owner: fc.constantFrom(undefined, OWNER, "ReplicaSet/payments/other"),
            boundAgoS: fc.integer({ min: 0, max: 600 }),
            demand: fc.integer({ min: 0, max: 20 }),
          }),
          { maxLength: 40 },
        ),
        fc.uniqueArray(
          fc.record({ node: fc.constantFrom(...names, "node-x"), picks: fc.array(fc.nat(), { maxLength: 4 }), unknown: fc.boolean() }),
          { selector: (c) => c.node, maxLength: 5 },
        ),
        fc.boolean(),
        (specs, cands, required) => {
          const pods = specs.map((s, i) =>
            running(`p${i}`, s.node, s.cpu, {
              ownerKey: s.owner,
              boundAtMs: NOW_MS - s.boundAgoS * 1000,
              expectedDemand: amounts(s.demand, 1),
            }),
          );
          const ctx = ctxOf(pods, amounts(16, 64));
          const candidates = cands.map((c) => {
            const onNode = pods.filter((p) => p.nodeName === c.node);
            const uids = c.picks.map((i) => onNode[i % Math.max(1, onNode.length)]?.uid).filter((u): u is string => u !== undefined);
            return cand(c.node, ...uids, ...(c.unknown ? ["unknown-uid"] : []));
          });
          const pod = meta(required ? { annotations: { [HOST_SPREAD_ANNOTATION]: "required" } } : {});
          const got = judgePreemptionCandidates(pod, candidates, ctx).verdicts.map((v) => ({
            node: v.node,
            verdict: v.decision.verdict,
            reasons: v.decision.reasons,
            score: v.decision.score,
          }));
          expect(got).to.deep.equal(fromScratch(pod, candidates, ctx));
        },
      ),
      { numRuns: 300 },
    );
  });
});
