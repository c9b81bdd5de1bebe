import { expect } from "chai";
import { decideNode } from "../../src/placement/decide-node.js";
import type { PodMeta } from "../../src/placement/exemption.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

const pod = (over: Partial<PodMeta> = {}): PodMeta => ({
  namespace: "payments",
  name: "api-1",
  ownerKinds: ["ReplicaSet"],
  annotations: {},
  ...over,
});

const inventory = inventoryOf(
  [
    hostView({ id: "host-1", name: "esx-hot", metrics: { cpuReadyPercent: 14 } }),
    hostView({ id: "host-2", name: "esx-cool" }),
    hostView({ id: "host-3", name: "esx-stale", metrics: { sampledAtMs: NOW_MS - 600_000 } }),
    hostView({ id: "host-4", name: "esx-maint", inMaintenance: true }),
  ],
  [
    vmView({ id: "vm-1", name: "n-hot", hostId: "host-1", biosUuid: undefined }),
    vmView({ id: "vm-2", name: "n-cool", hostId: "host-2", biosUuid: undefined }),
    vmView({ id: "vm-3", name: "n-stale", hostId: "host-3", biosUuid: undefined, metrics: { sampledAtMs: NOW_MS - 600_000 } }),
    vmView({ id: "vm-4", name: "n-maint", hostId: "host-4", biosUuid: undefined }),
    vmView({ id: "vm-5", name: "n-orphan", hostId: "host-99", biosUuid: undefined }),
  ],
);
const ctx = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS };
const names = ["n-hot", "n-cool", "n-stale", "n-maint", "n-unknown", "n-orphan"].map((name) => ({ name }));

describe("filterNodes", () => {
  it("given hot and maintenance hosts, rejects their nodes as unresolvable and passes the rest in order", () => {
    const out = filterNodes(pod(), names, ctx);
    expect(out.passed).to.deep.equal(["n-cool", "n-stale", "n-unknown", "n-orphan"]);
    expect([...out.unresolvable.keys()]).to.deep.equal(["n-hot", "n-maint"]);
    expect(out.failed.size).to.equal(0);
  });

  it("given staleMetrics: reject, rejects unknown, orphaned and stale nodes with a reason", () => {
    const out = filterNodes(pod(), names, { ...ctx, policy: policyWith({ staleMetrics: "reject" }) });
    expect(out.passed).to.deep.equal(["n-cool"]);
    expect(out.unresolvable.get("n-unknown")?.[0]?.code).to.equal("node_unmapped");
    expect(out.unresolvable.get("n-stale")?.[0]?.code).to.equal("metrics_stale");
    expect(out.unresolvable.get("n-orphan")?.[0]?.code).to.equal("vm_host_unknown");
  });

  const exempt: Array<{ name: string; pod: PodMeta }> = [
    { name: "a DaemonSet pod", pod: pod({ ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" }) },
    { name: "a system-node-critical pod", pod: pod({ priorityClassName: "system-node-critical" }) },
    { name: "a system-cluster-critical pod", pod: pod({ priorityClassName: "system-cluster-critical" }) },
    { name: "a pod with system-critical priority value", pod: pod({ priority: 2_000_001_000 }) },
    { name: "a kube-system pod", pod: pod({ namespace: "kube-system" }) },
    { name: "a pod annotated hvx.io/exempt: true (annotationNamespaces [*])", pod: pod({ annotations: { "hvx.io/exempt": "true" } }) },
  ];
  for (const c of exempt) {
    it(`given ${c.name}, never filters it out by host heat, state or stale data`, () => {
      const exempt = { ...DEFAULT_POLICY.exempt, annotationNamespaces: ["*"] };
      const out = filterNodes(c.pod, names, { ...ctx, policy: policyWith({ staleMetrics: "reject", exempt }) });
      expect(out.passed).to.have.length(names.length);
    });
  }

  it("given hvx.io/exempt: false, does not exempt the pod", () => {
    expect(filterNodes(pod({ annotations: { "hvx.io/exempt": "false" } }), names, ctx).unresolvable.size).to.equal(2);
  });
});

describe("prioritizeNodes", () => {
  it("given hot, cool and unknown nodes, scores hot 0, unknown the unknownScore, cool highest", () => {
    const scores = Object.fromEntries(prioritizeNodes(pod(), names, ctx).map((s) => [s.node, s.score]));
    expect(scores["n-hot"]).to.equal(0);
    expect(scores["n-unknown"]).to.equal(5);
    expect(scores["n-stale"]).to.equal(5);
    expect(scores["n-cool"]).to.be.greaterThan(5);
  });

  it("given scoring.unknownScore 3, uses it for unknown nodes", () => {
    const d = decideNode({ name: "n-unknown" }, pod(), {
      ...ctx,
      policy: policyWith({ scoring: { ...DEFAULT_POLICY.scoring, unknownScore: 3 } }),
    });
    expect(d.score).to.equal(3);
    expect(d.noOpinion).to.equal(true);
  });
});
