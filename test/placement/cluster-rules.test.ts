import { expect } from "chai";
import type { NodeView, PodView, ResourceAmounts } from "../../src/model/cluster.js";
import { decideNode, type PlacementContext } from "../../src/placement/decide-node.js";
import type { PodMeta } from "../../src/placement/exemption.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { HOST_SPREAD_ANNOTATION, HOST_SPREAD_MAX_SKEW_ANNOTATION } from "../../src/placement/host-spread.js";
import type { ParsedExtenderArgs } from "../../src/protocol/parse-extender-args.js";
import { formatReasons } from "../../src/protocol/format-reason.js";
import { toFilterResultWire } from "../../src/protocol/to-extender-wire.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

// Three 32-core hosts: esx-cool-1 (two node VMs), esx-hot (cpu ready 14 % >= 10 %), esx-cool-3.
// Node names differ from VM names: only providerID (kept in the cluster view) maps them,
// as in NodeNames mode where kube-scheduler sends names only.
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
const NODE_NAMES = ["node-1a", "node-1b", "node-2", "node-3"] as const;
const VM_OF: Record<string, number> = { "node-1a": 1, "node-1b": 2, "node-2": 3, "node-3": 4 };
const nodesWith = (allocatable: ResourceAmounts): NodeView[] =>
  NODE_NAMES.map((name) => nodeView({ name, providerID: `vsphere://${uuid(VM_OF[name]!)}`, allocatable }));
const candidates = NODE_NAMES.map((name) => ({ name }));

const OWNER = "ReplicaSet/payments/api-7d9";
const incoming = podView({ uid: "incoming", ownerKey: OWNER, limits: amounts(2, 2), expectedDemand: amounts(1, 1), boundAtMs: undefined });
/** A pod bound an hour ago (the burst guard ignores it) with `cpu` CPUs of limits. */
const running = (nodeName: string, cpu: number, over: Partial<PodView> = {}) => podView({ nodeName, limits: amounts(cpu, 1), ...over });

function ctxOf(pods: PodView[], allocatable = amounts(7.8, 30), pod = incoming): PlacementContext {
  return { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS, cluster: { view: clusterViewOf(nodesWith(allocatable), pods), pod } };
}
const meta = (over: Partial<PodMeta> = {}) => podMetaOf(incoming, over);
const scores = (pod: PodMeta, ctx: PlacementContext) =>
  Object.fromEntries(prioritizeNodes(pod, candidates, ctx).map((s) => [s.node, s.score]));
const BIG = amounts(64, 256);

describe("cluster rules in filterNodes (limit overcommit)", () => {
  // node-1a: 14 + 2 = 16 CPUs / 7.8 = 2.05 > 2.0; node-1b: 2 / 7.8 = 0.26
  const pods = [running("node-1a", 8), running("node-1a", 6), running("node-2", 20)];

  it("given a node over the cpu limit maximum, puts it in FailedNodes (resolvable) naming the rule and resource", () => {
    const out = filterNodes(meta(), candidates, ctxOf(pods));
    expect(out.passed).to.deep.equal(["node-1b", "node-3"]);
    expect([...out.failed.keys()]).to.deep.equal(["node-1a"]);
    const parsed = { mode: "nodeNames", nodes: candidates, pod: meta() } as unknown as ParsedExtenderArgs;
    const wire = toFilterResultWire(parsed, out);
    expect(wire.FailedNodes).to.deep.equal({ "node-1a": "node(s) over the limit overcommit cap (cpu)" });
    expect(formatReasons(out.failed.get("node-1a")!)).to.equal("cpu limits 16.0 / allocatable 7.8 = 2.05 > 2.0 (limit overcommit)");
  });

  it("given a node on a hot host that is also over its limits, lists it only as unresolvable, with the host reason", () => {
    // node-2: 20 + 2 = 22 / 7.8 = 2.82 > 2.0, and its host is hot
    const out = filterNodes(meta(), candidates, ctxOf(pods));
    expect(out.failed.has("node-2")).to.equal(false);
    expect(out.unresolvable.get("node-2")!.map((r) => r.code)).to.deep.equal(["host_metric"]);
  });

  it("given no cluster context, does not check limits", () => {
    const ctx = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS };
    const withIds = nodesWith(amounts(7.8, 30)).map(({ name, providerID }) => ({ name, providerID }));
    expect(filterNodes(meta(), withIds, ctx).passed).to.deep.equal(["node-1a", "node-1b", "node-3"]);
  });
});

describe("cluster rules: NodeNames mode mapping", () => {
  it("given a node by name only, maps it through the cluster view's providerID", () => {
    const d = decideNode({ name: "node-3" }, meta(), ctxOf([]));
    expect(d.vm?.id).to.equal("vm-4");
    expect(d.host?.id).to.equal("host-3");
    expect(d.noOpinion).to.equal(false);
  });

  it("given a node by name only and the view holding its systemUUID, maps it", () => {
    const nodes = [nodeView({ name: "node-3", systemUUID: uuid(4).toUpperCase() })];
    const ctx: PlacementContext = {
      inventory,
      policy: DEFAULT_POLICY,
      nowMs: NOW_MS,
      cluster: { view: clusterViewOf(nodes), pod: incoming },
    };
    expect(decideNode({ name: "node-3" }, meta(), ctx).vm?.id).to.equal("vm-4");
  });

  it("given the same name without a cluster view, cannot map it (no opinion)", () => {
    const d = decideNode({ name: "node-3" }, meta(), { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS });
    expect(d.noOpinion).to.equal(true);
    expect(d.reasons[0]?.code).to.equal("node_unmapped");
  });

  it("given a name unknown to the view and the inventory, has no opinion", () => {
    expect(decideNode({ name: "node-9" }, meta(), ctxOf([])).reasons[0]?.code).to.equal("node_unmapped");
  });
});

describe("cluster rules: stacked CPU overcommit", () => {
  // Big nodes (64 CPUs allocatable) so only the host rule bites. Host cores 32, max 4.0 = 128 CPUs.
  it("given 127 CPUs of limits across both node VMs of a host, rejects both nodes (resolvable)", () => {
    // 60 + 67 + 2 = 129 / 32 = 4.03 > 4.0
    const out = filterNodes(meta(), candidates, ctxOf([running("node-1a", 60), running("node-1b", 67)], BIG));
    expect(out.passed).to.deep.equal(["node-3"]);
    expect([...out.failed.keys()]).to.deep.equal(["node-1a", "node-1b"]);
    expect(out.failed.get("node-1b")![0]).to.deep.include({ code: "stacked_overcommit", cpuLimitsMilli: 129_000, cores: 32 });
  });

  it("given 110 CPUs of limits on the host (112 / 32 = 3.5), lowers its nodes' score by 2", () => {
    // penalty = ceil(4 x (3.5 / 4.0 - 0.75) / 0.25) = 2; pods on other owners, so no spread penalty
    const base = scores(meta(), ctxOf([], BIG));
    const loaded = scores(meta(), ctxOf([running("node-1a", 50), running("node-1b", 60)], BIG));
    expect(base["node-1a"]).to.be.at.least(5);
    expect(loaded["node-1a"]).to.equal(base["node-1a"]! - 2);
    expect(loaded["node-1b"]).to.equal(base["node-1b"]! - 2);
    expect(loaded["node-3"]).to.equal(base["node-3"]);
  });
});

describe("cluster rules: spread across ESXi hosts", () => {
  // Two replicas of OWNER on host-1 (one per node VM), none on host-2 and host-3;
  // five pods of another owner on host-3 must not count.
  const replicas = [
    running("node-1a", 1, { ownerKey: OWNER }),
    running("node-1b", 1, { ownerKey: OWNER }),
    ...[1, 2, 3, 4, 5].map(() => running("node-3", 0.5, { ownerKey: "ReplicaSet/payments/other-5f4" })),
  ];

  it("given 2 replicas on one host and 0 on another candidate host, lowers the first by 2 x 2 = 4", () => {
    const base = scores(meta(), ctxOf([], BIG));
    const spread = scores(meta(), ctxOf(replicas, BIG));
    expect(spread["node-1a"]).to.equal(base["node-1a"]! - 4);
    expect(spread["node-1b"]).to.equal(base["node-1b"]! - 4);
    expect(spread["node-3"]).to.equal(base["node-3"]);
  });

  it("given a pod of another owner, does not lower scores for it", () => {
    const other = podView({ uid: "incoming", ownerKey: "StatefulSet/payments/db", limits: amounts(2, 2), boundAtMs: undefined });
    const base = scores(meta(), ctxOf([], BIG, other));
    expect(scores(meta(), ctxOf(replicas, BIG, other))).to.deep.equal(base);
  });

  const required: Array<{ name: string; annotations: Record<string, string>; passed: string[] }> = [
    // host-1: (2 + 1) - 0 = 3 > 1
    {
      name: "given host-spread: required (skew 1), filters the host with 2 replicas",
      annotations: { [HOST_SPREAD_ANNOTATION]: "required" },
      passed: ["node-3"],
    },
    // (2 + 1) - 0 = 3 > 2
    {
      name: "given max-skew 2, still filters it",
      annotations: { [HOST_SPREAD_ANNOTATION]: "required", [HOST_SPREAD_MAX_SKEW_ANNOTATION]: "2" },
      passed: ["node-3"],
    },
    // (2 + 1) - 0 = 3 <= 3
    {
      name: "given max-skew 3, passes it",
      annotations: { [HOST_SPREAD_ANNOTATION]: "required", [HOST_SPREAD_MAX_SKEW_ANNOTATION]: "3" },
      passed: ["node-1a", "node-1b", "node-3"],
    },
    { name: "given no annotation, only scores (filters nothing)", annotations: {}, passed: ["node-1a", "node-1b", "node-3"] },
  ];
  for (const c of required) {
    it(c.name, () => {
      const out = filterNodes(meta({ annotations: c.annotations }), candidates, ctxOf(replicas, BIG));
      expect(out.passed).to.deep.equal(c.passed);
      for (const n of ["node-1a", "node-1b"]) {
        if (!c.passed.includes(n))
          expect(out.failed.get(n)![0]).to.deep.include({ code: "host_spread", onHost: 2, leastOnCandidates: 0, owner: OWNER });
      }
    });
  }

  it("given required spread and only host-1's nodes as candidates, compares with host-1 itself and passes", () => {
    // least loaded candidate host is host-1 itself (2): (2 + 1) - 2 = 1 <= 1
    const out = filterNodes(
      meta({ annotations: { [HOST_SPREAD_ANNOTATION]: "required" } }),
      [{ name: "node-1a" }, { name: "node-1b" }],
      ctxOf(replicas, BIG),
    );
    expect(out.passed).to.deep.equal(["node-1a", "node-1b"]);
  });
});

describe("cluster rules: exempt pods", () => {
  // Every rule would reject: node-1a over limits (16 / 7.8), host-1 stacked (127 + 2 > 128),
  // 2 replicas on host-1 with spread required, host-2 hot.
  const pods = [running("node-1a", 14, { ownerKey: OWNER }), running("node-1b", 113, { ownerKey: OWNER }), running("node-2", 30)];
  const daemonSet = meta({ ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds", annotations: { [HOST_SPREAD_ANNOTATION]: "required" } });

  it("given the pods would fail every cluster rule, the non-exempt pod is rejected everywhere but node-3", () => {
    const out = filterNodes(meta({ annotations: { [HOST_SPREAD_ANNOTATION]: "required" } }), candidates, ctxOf(pods));
    expect(out.passed).to.deep.equal(["node-3"]);
  });

  it("given a DaemonSet pod, passes every node", () => {
    const out = filterNodes(daemonSet, candidates, ctxOf(pods));
    expect(out.passed).to.deep.equal([...NODE_NAMES]);
    expect(out.failed.size + out.unresolvable.size).to.equal(0);
    expect(out.decisions.every((d) => d.exemptBy === "DaemonSet pod")).to.equal(true);
  });

  it("given a DaemonSet pod whose uid the cluster view does not know (a forged owner), applies every rule", () => {
    const ctx = ctxOf(pods);
    const unknown = { ...ctx, cluster: { ...ctx.cluster!, view: { ...ctx.cluster!.view, daemonSets: new Set(["payments/other-uid"]) } } };
    expect(filterNodes(daemonSet, candidates, unknown).passed).to.deep.equal(["node-3"]);
    const known = {
      ...ctx,
      cluster: { ...ctx.cluster!, view: { ...ctx.cluster!.view, daemonSets: new Set([`${daemonSet.namespace}/uid-ds`]) } },
    };
    expect(filterNodes(daemonSet, candidates, known).passed).to.deep.equal([...NODE_NAMES]);
  });

  it("given a DaemonSet pod, takes no stacked or spread penalty off the score", () => {
    expect(scores(daemonSet, ctxOf(pods))["node-1a"]).to.equal(scores(daemonSet, ctxOf([]))["node-1a"]);
  });

  const annotated = (over: Partial<PodMeta> = {}) =>
    meta({ annotations: { [HOST_SPREAD_ANNOTATION]: "required", "hvx.io/exempt": "true" }, ...over });
  const honoured = (ctx: PlacementContext): PlacementContext => ({
    ...ctx,
    policy: policyWith({ exempt: { ...DEFAULT_POLICY.exempt, annotationNamespaces: ["*"] } }),
  });

  it("given a pod annotated hvx.io/exempt: true, lifts the host-heat rules only: limits, stacked cap and spread still reject", () => {
    const out = filterNodes(annotated(), candidates, honoured(ctxOf(pods)));
    expect(out.passed).to.deep.equal(["node-3"]);
    expect(out.unresolvable.size, "the hot host no longer keeps it off node-2").to.equal(0);
    expect(out.failed.get("node-1a")?.map((r) => r.code)).to.include("limit_overcommit");
    expect(out.failed.get("node-1b")?.map((r) => r.code)).to.include.members(["stacked_overcommit", "host_spread"]);
    expect(out.failed.get("node-2")?.map((r) => r.code)).to.deep.equal(["limit_overcommit"]);
    expect(out.decisions.find((d) => d.node === "node-2")?.exemptBy).to.equal("annotation hvx.io/exempt");
  });

  it("given a pod annotated hvx.io/exempt: true, still takes the stacked and spread penalties off the score", () => {
    const loose = annotated({ annotations: { "hvx.io/exempt": "true" } });
    const few = [running("node-1a", 1, { ownerKey: OWNER }), running("node-1b", 1, { ownerKey: OWNER })];
    expect(scores(loose, honoured(ctxOf(few, BIG)))["node-1a"]).to.be.below(scores(loose, honoured(ctxOf([], BIG)))["node-1a"]!);
  });

  for (const c of [
    { patterns: [], honoured: false, why: "[] turns the annotation off, the default" },
    { patterns: ["team-*", "kube-system"], honoured: false, why: "payments matches no pattern" },
    { patterns: ["pay*"], honoured: true, why: "pay* matches payments" },
    { patterns: ["*"], honoured: true, why: "every namespace" },
  ]) {
    it(`given exempt.annotationNamespaces ${JSON.stringify(c.patterns)}, ${c.honoured ? "honours" : "ignores"} the annotation (${c.why})`, () => {
      const ctx = { ...ctxOf([]), policy: policyWith({ exempt: { ...DEFAULT_POLICY.exempt, annotationNamespaces: c.patterns } }) };
      const out = filterNodes(meta({ annotations: { "hvx.io/exempt": "true" } }), candidates, ctx);
      expect(out.passed.includes("node-2")).to.equal(c.honoured);
    });
  }
});

describe("cluster rules: a cluster view older than kubernetes.maxCacheAgeSeconds has no opinion", () => {
  const pods = [running("node-1a", 14, { ownerKey: OWNER }), running("node-1b", 113, { ownerKey: OWNER })];
  const required = meta({ annotations: { [HOST_SPREAD_ANNOTATION]: "required" } });
  const aged = (ageMs: number, policy = DEFAULT_POLICY): PlacementContext => {
    const ctx = ctxOf(pods);
    return { ...ctx, policy, cluster: { ...ctx.cluster!, view: { ...ctx.cluster!.view, lastEventMs: NOW_MS - ageMs } } };
  };

  it("given a view heard from exactly 300 s ago, still applies limits, stacked cap and spread", () => {
    expect(filterNodes(required, candidates, aged(300_000)).passed).to.deep.equal(["node-3"]);
  });

  it("given a view older than 300 s, drops them (like stale metrics); host heat still rejects", () => {
    const out = filterNodes(required, candidates, aged(300_001));
    expect(out.passed).to.deep.equal(["node-1a", "node-1b", "node-3"]);
    expect(out.failed.size).to.equal(0);
    expect([...out.unresolvable.keys()]).to.deep.equal(["node-2"]);
  });

  it("given a view older than 300 s, takes no stacked or spread penalty off the score either", () => {
    const loose = meta();
    expect(scores(loose, aged(400_000))["node-1a"]).to.equal(scores(loose, { ...ctxOf([]) })["node-1a"]);
  });

  it("given kubernetes.maxCacheAgeSeconds 600, a 400 s old view still counts", () => {
    const policy = policyWith({ kubernetes: { ...DEFAULT_POLICY.kubernetes!, maxCacheAgeSeconds: 600 } });
    expect(filterNodes(required, candidates, aged(400_000, policy)).passed).to.deep.equal(["node-3"]);
  });
});
