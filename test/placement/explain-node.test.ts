import { expect } from "chai";
import type { NodeIdentity } from "../../src/model/node.js";
import type { PlacementContext } from "../../src/placement/decide-node.js";
import { explainNodes, type NodeExplanation } from "../../src/placement/explain-node.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { HOST_SPREAD_ANNOTATION } from "../../src/placement/host-spread.js";
import { hostHeadroom } from "../../src/placement/score-host.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../fixtures/cluster.js";
import { countingVmPasses, hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

// One host per situation, one node VM each (two on the cool host, for spread):
//   host-1 esx-cool   ready 1 %, usage 30 %          -> cool, two VMs (node-cool-a by providerID, node-cool-b by name)
//   host-2 esx-hot    ready 14 % >= 10 %             -> hot (cpu ready)
//   host-3 esx-warm   ready 6 % >= 5 % (warn)        -> warm
//   host-4 esx-swap   swap-in 40 KB/s >= 1 KB/s      -> hot (swap)
//   host-5 esx-stale  sampled 600 s ago > 120 s      -> no opinion
//   node-balloon: VM on esx-cool with 512 MiB balloon -> rejected (VM balloon)
//   node-ghost: no VM                                 -> no opinion (unmapped)
const uuid = (n: number) => `4226000${n}-e4e0-c681-b5dd-f69dfa98103${n}`;
const swapped = (n: number) => `0${n}002642-e0e4-81c6-b5dd-f69dfa98103${n}`;
const inventory = inventoryOf(
  [
    hostView({ id: "host-1", name: "esx-cool" }),
    hostView({ id: "host-2", name: "esx-hot", metrics: { cpuReadyPercent: 14 } }),
    hostView({ id: "host-3", name: "esx-warm", metrics: { cpuReadyPercent: 6 } }),
    hostView({ id: "host-4", name: "esx-swap", metrics: { swapInKBps: 40 } }),
    hostView({ id: "host-5", name: "esx-stale", metrics: { sampledAtMs: NOW_MS - 600_000 } }),
  ],
  [
    vmView({ id: "vm-1", name: "vm-cool-a", hostId: "host-1", biosUuid: uuid(1) }),
    vmView({ id: "vm-2", name: "node-cool-b", hostId: "host-1", biosUuid: uuid(2) }),
    vmView({ id: "vm-3", name: "vm-hot", hostId: "host-2", biosUuid: uuid(3), metrics: { cpuReadyPercent: 13 } }),
    vmView({ id: "vm-4", name: "vm-warm", hostId: "host-3", biosUuid: uuid(4), metrics: { cpuReadyPercent: 6 } }),
    vmView({ id: "vm-5", name: "vm-swap", hostId: "host-4", biosUuid: uuid(5) }),
    vmView({ id: "vm-6", name: "vm-stale", hostId: "host-5", biosUuid: uuid(6) }),
    vmView({ id: "vm-7", name: "vm-balloon", hostId: "host-1", biosUuid: uuid(7), metrics: { balloonMiB: 512 } }),
  ],
);
const nodes: NodeIdentity[] = [
  { name: "node-cool-a", providerID: `vsphere://${uuid(1)}` },
  { name: "node-cool-b" },
  { name: "node-hot", providerID: `vsphere://${uuid(3)}` },
  { name: "node-warm", systemUUID: swapped(4).toUpperCase() },
  { name: "node-swap", providerID: `vsphere://${uuid(5)}` },
  { name: "node-stale", providerID: `vsphere://${uuid(6)}` },
  { name: "node-balloon", providerID: `vsphere://${uuid(7)}` },
  { name: "node-ghost" },
];

const OWNER = "ReplicaSet/payments/api";
const incoming = podView({ uid: "incoming", ownerKey: OWNER, limits: amounts(2, 2), boundAtMs: undefined });
const clusterNodes = nodes.map((n) => nodeView({ ...n }));
const pods = [
  // a replica already on esx-cool (spread), and a pod bound 5 s ago there (burst guard: no sample since)
  podView({ nodeName: "node-cool-a", ownerKey: OWNER }),
  podView({ nodeName: "node-cool-b", boundAtMs: NOW_MS - 5_000, expectedDemand: amounts(4, 8) }),
  // node-warm: cpu limits 16 + 2 incoming over allocatable 7.8 = 2.31 > 2.0 (limit overcommit)
  podView({ nodeName: "node-warm", limits: amounts(16, 2) }),
];

const withCluster: PlacementContext = {
  inventory,
  policy: DEFAULT_POLICY,
  nowMs: NOW_MS,
  cluster: { view: clusterViewOf(clusterNodes, pods), pod: incoming },
};
const extenderOnly: PlacementContext = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS };
const staleRejects: PlacementContext = { ...extenderOnly, policy: policyWith({ staleMetrics: "reject" }) };
const pod = podMetaOf(incoming);
const daemonSetPod = podMetaOf(incoming, { ownerKinds: ["DaemonSet"], daemonSetUid: "uid-ds" });
const requiredSpread = podMetaOf(incoming, { annotations: { [HOST_SPREAD_ANNOTATION]: "required" } });

const contexts: Array<{ name: string; ctx: PlacementContext; pod: typeof pod }> = [
  { name: "with the cluster view (burst guard, limits, stacked cap, spread)", ctx: withCluster, pod },
  { name: "with hvx.io/host-spread: required", ctx: withCluster, pod: requiredSpread },
  { name: "extender only", ctx: extenderOnly, pod },
  { name: "staleMetrics: reject", ctx: staleRejects, pod },
  { name: "a DaemonSet pod (exempt)", ctx: withCluster, pod: daemonSetPod },
];

describe("explainNodes", () => {
  for (const c of contexts) {
    it(`given ${c.name}, builds the VM lookup tables as often for eight nodes as for one`, () => {
      const passesFor = (some: readonly NodeIdentity[]) => {
        const counted = countingVmPasses(c.ctx.inventory);
        explainNodes(c.pod, some, { ...c.ctx, inventory: counted.inventory });
        return counted.passes();
      };
      expect(passesFor(nodes)).to.equal(passesFor(nodes.slice(0, 1)));
    });
  }

  for (const c of contexts) {
    it(`given ${c.name}, gives every node the verdict of filterNodes and the score of prioritizeNodes`, () => {
      const explained = explainNodes(c.pod, nodes, c.ctx);
      const filtered = filterNodes(c.pod, nodes, c.ctx);
      const scores = prioritizeNodes(c.pod, nodes, c.ctx);
      expect(explained.map((e) => e.node)).to.deep.equal(nodes.map((n) => n.name));
      explained.forEach((e, i) => {
        const d = filtered.decisions[i]!;
        expect({ node: e.node, verdict: e.verdict, unresolvable: e.unresolvable, reasons: e.reasons }).to.deep.equal({
          node: d.node,
          verdict: d.verdict,
          unresolvable: d.unresolvable,
          reasons: d.reasons,
        });
        expect(e.score, e.node).to.equal(scores[i]!.score);
      });
    });
  }

  const byName = (list: NodeExplanation[]) => new Map(list.map((e) => [e.node, e]));
  const withView = byName(explainNodes(pod, nodes, withCluster));
  const alone = byName(explainNodes(pod, nodes, extenderOnly));

  const mappings: Array<{ node: string; ctx: Map<string, NodeExplanation>; want: NodeExplanation["mapping"] }> = [
    {
      node: "node-cool-a",
      ctx: alone,
      want: { rule: "providerID", vm: { id: "vm-1", name: "vm-cool-a" }, host: { id: "host-1", name: "esx-cool" } },
    },
    {
      node: "node-cool-b",
      ctx: alone,
      want: { rule: "name", vm: { id: "vm-2", name: "node-cool-b" }, host: { id: "host-1", name: "esx-cool" } },
    },
    // systemUUID sent upper case and byte-swapped: the systemUUID rule still finds vm-4
    {
      node: "node-warm",
      ctx: alone,
      want: { rule: "systemUUID", vm: { id: "vm-4", name: "vm-warm" }, host: { id: "host-3", name: "esx-warm" } },
    },
    { node: "node-ghost", ctx: alone, want: {} },
  ];
  for (const m of mappings) {
    it(`given ${m.node}, names the mapping rule, VM and host (${m.want.rule ?? "unmapped"})`, () => {
      expect(m.ctx.get(m.node)!.mapping).to.deep.equal(m.want);
    });
  }

  it("given names only, maps through the cluster view's Node (providerID kept there)", () => {
    const namesOnly = nodes.map((n) => ({ name: n.name }));
    const e = byName(explainNodes(pod, namesOnly, withCluster));
    expect(e.get("node-hot")!.mapping.rule).to.equal("providerID");
    expect(e.get("node-warm")!.mapping.rule).to.equal("systemUUID");
  });

  const rules: Array<{ node: string; scope: "host" | "vm"; metric: string; want: { value: unknown; status: string; threshold: unknown } }> =
    [
      { node: "node-hot", scope: "host", metric: "cpu ready", want: { value: 14, status: "reject", threshold: 10 } },
      { node: "node-hot", scope: "vm", metric: "cpu ready", want: { value: 13, status: "reject", threshold: 10 } },
      { node: "node-swap", scope: "host", metric: "swap-in rate", want: { value: 40, status: "reject", threshold: 1 } },
      { node: "node-warm", scope: "host", metric: "cpu ready", want: { value: 6, status: "warn", threshold: 10 } },
      { node: "node-balloon", scope: "vm", metric: "balloon", want: { value: 512, status: "reject", threshold: 0 } },
      { node: "node-cool-a", scope: "host", metric: "memory usage", want: { value: 40, status: "ok", threshold: 95 } },
    ];
  for (const r of rules) {
    it(`given ${r.node}, shows ${r.scope} ${r.metric} ${r.want.value} against ${r.want.threshold}: ${r.want.status}`, () => {
      const check = alone.get(r.node)!.rules.find((c) => c.scope === r.scope && c.metric === r.metric)!;
      expect({ value: check.value, status: check.status, threshold: check.threshold }).to.deep.equal(r.want);
      // sampled 14 s before now (fixtures)
      expect(check.ageS).to.equal(14);
    });
  }

  it("given a cool host, its headroom terms add up to hostHeadroom and the base score is the cool tier's", () => {
    const e = alone.get("node-cool-a")!;
    const host = inventory.hosts.get("host-1")!;
    const sum = e.headroom!.terms.reduce((s, t) => s + t.weight * t.free!, 0);
    expect(sum).to.be.closeTo(hostHeadroom(host.metrics!, inventory.vms.get("vm-1")!.metrics, DEFAULT_POLICY.thresholds)!, 1e-12);
    expect(e.headroom!.total).to.equal(hostHeadroom(host.metrics!, inventory.vms.get("vm-1")!.metrics, DEFAULT_POLICY.thresholds));
    expect(e.heat).to.equal("cool");
    expect(e.baseScore).to.equal(e.score);
    expect(e.score).to.be.within(5, 10);
  });

  it("given the cluster view, shows the burst guard's pending pod, the spread penalty and the limit rejection", () => {
    const cool = withView.get("node-cool-a")!;
    expect(cool.penalties.burstGuard).to.deep.equal({ ...amounts(4, 8), pods: 1 });
    // one replica on esx-cool, none on the least loaded candidate host: 2 points
    const points = Object.fromEntries(cool.penalties.adjustments.map((a) => [a.rule, a.points]));
    // no VM outside Kubernetes on esx-cool: the whole host is room for the group, no correlated-burst points
    expect(points).to.deep.equal({ "stacked-cap": 0, "replica-spread": 2, "correlated-burst": 0 });
    expect(cool.score).to.equal(Math.max(5, cool.baseScore! - 2));
    const warm = withView.get("node-warm")!;
    expect(warm.verdict).to.equal("reject");
    expect(warm.penalties.limits.map((r) => r.code)).to.deep.equal(["limit_overcommit"]);
  });

  it("given unknown or stale data, says unknown heat and keeps the no-opinion reason", () => {
    expect(alone.get("node-stale")).to.deep.include({ heat: "unknown", noOpinion: true, verdict: "pass" });
    expect(alone.get("node-stale")!.reasons[0]!.code).to.equal("metrics_stale");
    // the old sample's values are shown, but no rule was applied to them
    expect(alone.get("node-stale")!.rules.map((r) => r.status)).to.satisfy((all: string[]) => all.every((st) => st === "unknown"));
    expect(alone.get("node-stale")!.rules.find((r) => r.metric === "cpu usage")!.value).to.equal(30);
    expect(alone.get("node-ghost")).to.deep.include({ heat: "unknown", noOpinion: true, rules: [] });
  });
});
