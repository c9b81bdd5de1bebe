import { expect } from "chai";
import type { PlacementContext } from "../../src/placement/decide-node.js";
import { applyAllRejectedValve, heatTier, type WhenAllRejected } from "../../src/placement/all-rejected-valve.js";
import type { PodMeta } from "../../src/placement/exemption.js";
import { filterNodes } from "../../src/placement/filter-nodes.js";
import type { ParsedExtenderArgs } from "../../src/protocol/parse-extender-args.js";
import { toFilterResultWire } from "../../src/protocol/to-extender-wire.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import type { HostMetrics } from "../../src/model/inventory.js";

const pod: PodMeta = { namespace: "payments", name: "api-1", ownerKinds: ["ReplicaSet"], annotations: {} };

/** One node VM per host, named n-<host>; node names equal VM names (the `name` mapping rule). */
function ctxOf(hosts: Array<{ id: string; metrics?: Partial<HostMetrics>; inMaintenance?: boolean }>): {
  ctx: PlacementContext;
  nodes: Array<{ name: string }>;
} {
  const inventory = inventoryOf(
    hosts.map((h) =>
      hostView({ id: h.id, name: `esx-${h.id}`, inMaintenance: h.inMaintenance ?? false, ...(h.metrics ? { metrics: h.metrics } : {}) }),
    ),
    hosts.map((h) => vmView({ id: `vm-${h.id}`, name: `n-${h.id}`, hostId: h.id, biosUuid: undefined })),
  );
  return { ctx: { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS }, nodes: hosts.map((h) => ({ name: `n-${h.id}` })) };
}

function run(hosts: Parameters<typeof ctxOf>[0], setting: WhenAllRejected) {
  const { ctx, nodes } = ctxOf(hosts);
  return applyAllRejectedValve(filterNodes(pod, nodes, ctx), pod, nodes, ctx, setting);
}

describe("applyAllRejectedValve", () => {
  // Default thresholds: cpu ready >= 10 %, host cpu usage >= 90 %, memory usage >= 95 %.
  const cases: Array<{
    name: string;
    hosts: Parameters<typeof ctxOf>[0];
    setting: WhenAllRejected;
    passed: string[];
    action?: "passed-coolest" | "rejected";
  }> = [
    {
      // tiers: a 14/10 = 1.4, b 12/10 = 1.2, c 12/10 = 1.2 -> b and c (coolest tier) pass
      name: "given every host hot and pass-coolest, passes the nodes of the coolest tier, in the order sent",
      hosts: [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", metrics: { cpuReadyPercent: 12 } },
        { id: "c", metrics: { cpuReadyPercent: 11.5 } },
      ],
      setting: "pass-coolest",
      passed: ["n-b", "n-c"],
      action: "passed-coolest",
    },
    {
      name: "given every host hot and reject, passes nothing and notes what the valve would have passed",
      hosts: [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", metrics: { cpuReadyPercent: 12 } },
      ],
      setting: "reject",
      passed: [],
      action: "rejected",
    },
    {
      // a: ready 1.5, b: cpu usage 99/90 = 1.1 -> b is cooler
      name: "given different metrics over their thresholds, compares value/threshold across metrics",
      hosts: [
        { id: "a", metrics: { cpuReadyPercent: 15 } },
        { id: "b", metrics: { cpuUsagePercent: 99 } },
      ],
      setting: "pass-coolest",
      passed: ["n-b"],
      action: "passed-coolest",
    },
    {
      name: "given one cool host, the valve does not open",
      hosts: [{ id: "a", metrics: { cpuReadyPercent: 14 } }, { id: "b" }],
      setting: "pass-coolest",
      passed: ["n-b"],
    },
    {
      name: "given the only non-hot host in maintenance, the maintenance node stays rejected and the hot one passes",
      hosts: [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", inMaintenance: true },
      ],
      setting: "pass-coolest",
      passed: ["n-a"],
      action: "passed-coolest",
    },
    {
      name: "given every host in maintenance (not heat), the valve does not open",
      hosts: [
        { id: "a", inMaintenance: true },
        { id: "b", inMaintenance: true },
      ],
      setting: "pass-coolest",
      passed: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = run(c.hosts, c.setting);
      expect(out.passed).to.deep.equal(c.passed);
      expect(out.valve?.action).to.equal(c.action);
      for (const n of c.passed) expect(out.unresolvable.has(n)).to.equal(false);
    });
  }

  it("given reject, keeps every rejection as filterNodes made it", () => {
    const out = run(
      [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", metrics: { cpuReadyPercent: 12 } },
      ],
      "reject",
    );
    expect([...out.unresolvable.keys()]).to.deep.equal(["n-a", "n-b"]);
    expect(out.valve?.passed).to.deep.equal(["n-b"]);
  });

  it("given a node over its Kubernetes limits on the coolest hot host, keeps it rejected and passes the next tier", () => {
    // host a: ready 12 % (tier 1.2) but node n-a's cpu limits 16 + 2 / 7.8 > 2.0; host b: ready 14 % (tier 1.4).
    const { ctx, nodes } = ctxOf([
      { id: "a", metrics: { cpuReadyPercent: 12 } },
      { id: "b", metrics: { cpuReadyPercent: 14 } },
    ]);
    const incoming = podView({ uid: "incoming", limits: amounts(2, 2), expectedDemand: amounts(1, 1), boundAtMs: undefined });
    const view = clusterViewOf(
      [nodeView({ name: "n-a", allocatable: amounts(7.8, 30) }), nodeView({ name: "n-b", allocatable: amounts(7.8, 30) })],
      [podView({ nodeName: "n-a", limits: amounts(16, 1) })],
    );
    const withCluster: PlacementContext = { ...ctx, cluster: { view, pod: incoming } };
    const out = applyAllRejectedValve(filterNodes(pod, nodes, withCluster), pod, nodes, withCluster, "pass-coolest");
    expect(out.passed).to.deep.equal(["n-b"]);
    expect(out.unresolvable.has("n-a")).to.equal(true);
  });

  describe("a pod that may preempt (issue 25 §3)", () => {
    // Hosts a (ready 14 %) and b (ready 12 %) hot; a cool full node exists but kube-scheduler's own filters kept it from hvx.
    const hot = [
      { id: "a", metrics: { cpuReadyPercent: 14 } },
      { id: "b", metrics: { cpuReadyPercent: 12 } },
    ];
    const running = [podView({ nodeName: "n-a", eviction: { ownerKinds: ["ReplicaSet"], priority: 100, localStorage: false } })];
    const cases: Array<{ name: string; over: Partial<PodMeta>; passed: string[]; held?: true }> = [
      { name: "given priority 1000 above the lowest running 100, holds every rejection", over: { priority: 1000 }, passed: [], held: true },
      {
        name: "given preemptionPolicy Never, passes the coolest tier",
        over: { priority: 1000, preemptionPolicy: "Never" },
        passed: ["n-b"],
      },
      { name: "given priority equal to the lowest running, passes the coolest tier", over: { priority: 100 }, passed: ["n-b"] },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { ctx, nodes } = ctxOf(hot);
        const view = clusterViewOf([nodeView({ name: "n-a" }), nodeView({ name: "n-b" })], running);
        const withCluster: PlacementContext = { ...ctx, cluster: { view, pod: podView({ uid: "incoming", boundAtMs: undefined }) } };
        const meta: PodMeta = { ...pod, ...c.over };
        const out = applyAllRejectedValve(filterNodes(meta, nodes, withCluster), meta, nodes, withCluster, "pass-coolest");
        expect(out.passed).to.deep.equal(c.passed);
        expect(out.valve?.heldForPreemption).to.equal(c.held);
        expect(out.valve?.passed, "what the valve would have passed").to.deep.equal(["n-b"]);
        if (c.held) expect([...out.unresolvable.keys()]).to.deep.equal(["n-a", "n-b"]);
      });
    }
  });

  it("given the valve opened, the wire passes the coolest by name and notes it in the others' reasons, not in FailedNodes", () => {
    const out = run(
      [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", metrics: { cpuReadyPercent: 12 } },
      ],
      "pass-coolest",
    );
    const request = { mode: "nodeNames", nodes: [{ name: "n-a" }, { name: "n-b" }], pod } as unknown as ParsedExtenderArgs;
    const wire = toFilterResultWire(request, out);
    expect(wire.NodeNames).to.deep.equal(["n-b"]);
    expect(wire.FailedNodes).to.deep.equal({});
    expect(Object.keys(wire.FailedAndUnresolvableNodes)).to.deep.equal(["n-a"]);
    expect(wire.FailedAndUnresolvableNodes["n-a"]).to.equal(
      "node(s) on hot ESXi hosts (cpu ready); hvx: host heat rejected every candidate, so the coolest tier passed anyway (n-b; filter.whenAllRejected: pass-coolest)",
    );
  });
});

describe("heatTier", () => {
  const host = { id: "h", name: "esx" };
  const metric = (value: number | string, threshold: number | string) =>
    ({ code: "host_metric", host, metric: "cpu ready", value, op: ">=", threshold, unit: "%", ageS: 1 }) as const;
  const cases = [
    { name: "12 / 10 = 1.2", reasons: [metric(12, 10)], want: 1.2 },
    { name: "12.3 / 10 = 1.23 rounds up to 1.3", reasons: [metric(12.3, 10)], want: 1.3 },
    { name: "the worst of two reasons: max(1.1, 1.5)", reasons: [metric(11, 10), metric(15, 10)], want: 1.5 },
    { name: "memory state hard has no ratio: Infinity", reasons: [metric("hard", "hard|low")], want: Number.POSITIVE_INFINITY },
  ];
  for (const c of cases) it(`given ${c.name}, returns ${c.want}`, () => expect(heatTier({ reasons: c.reasons })).to.equal(c.want));
});

describe("filter outcomes", () => {
  // An object literal's `get` accessors are allocated in V8's old generation, so each request's closures and the
  // arrays they hold outlived every scavenge (docs/performance.md, "Fifth pass"): outcomes carry no accessor of their own.
  const ownAccessors = (o: object) =>
    Object.entries(Object.getOwnPropertyDescriptors(o))
      .filter(([, d]) => d.get !== undefined)
      .map(([k]) => k);
  const hot = [{ id: "a", metrics: { cpuReadyPercent: 14 } }, { id: "b", metrics: { cpuReadyPercent: 12 } }, { id: "c" }];

  it("given filterNodes, builds the reason maps on first read and once, with no accessor of its own", () => {
    const { ctx, nodes } = ctxOf(hot);
    const out = filterNodes(pod, nodes, ctx);
    expect(ownAccessors(out)).to.deep.equal([]);
    expect(out.passed).to.deep.equal(["n-c"]);
    expect([...out.unresolvable.keys()]).to.deep.equal(["n-a", "n-b"]);
    expect(out.unresolvable).to.equal(out.unresolvable);
    expect(out.failed.size).to.equal(0);
  });

  for (const setting of ["reject", "pass-coolest"] as const) {
    it(`given the valve's ${setting} outcome, keeps every field of the filter's, with no accessor of its own`, () => {
      const out = run(hot.slice(0, 2), setting);
      expect(ownAccessors(out)).to.deep.equal([]);
      expect(out.decisions.map((d) => d.node)).to.deep.equal(["n-a", "n-b"]);
      expect(out.failed.size).to.equal(0);
      expect([...out.unresolvable.keys()]).to.deep.equal(setting === "reject" ? ["n-a", "n-b"] : ["n-a"]);
      expect(out.passed).to.deep.equal(setting === "reject" ? [] : ["n-b"]);
      expect(out.valve?.passed).to.deep.equal(["n-b"]);
    });
  }
});
