import { expect } from "chai";
import type { PodView } from "../../src/model/cluster.js";
import type { PlacementContext } from "../../src/placement/decide-node.js";
import { explainNodes } from "../../src/placement/explain-node.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { PlacementIndex } from "../../src/placement/placement-index.js";
import type { PlacementPolicy } from "../../src/placement/policy.js";
import { DEFAULT_WORKLOAD_CLASSES } from "../../src/placement/rules/kubernetes/workload-class.js";
import type { ParsedExtenderArgs } from "../../src/protocol/parse-extender-args.js";
import { toFilterResultWire } from "../../src/protocol/to-extender-wire.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

// Two cool, idle hosts with one node VM each; esx-batch already runs 3 cores of batch pods
// and 1 core of online ones, esx-quiet 4 cores of online ones.
const uuid = (n: number) => `4226${n}e63-e4e0-c681-b5dd-f69dfa98103${n}`;
const inventory = inventoryOf(
  [hostView({ id: "host-1", name: "esx-batch" }), hostView({ id: "host-2", name: "esx-quiet" })],
  [
    vmView({ id: "vm-1", name: "vm-k8s-1", hostId: "host-1", biosUuid: uuid(1) }),
    vmView({ id: "vm-2", name: "vm-k8s-2", hostId: "host-2", biosUuid: uuid(2) }),
  ],
);
const nodes = [1, 2].map((n) => nodeView({ name: `node-${n}`, providerID: `vsphere://${uuid(n)}`, allocatable: amounts(64, 256) }));
const candidates = nodes.map(({ name }) => ({ name }));
const running = (nodeName: string, cores: number, workloadClass: PodView["workloadClass"]) =>
  podView({ nodeName, expectedDemand: amounts(cores, 1), workloadClass });
const view = clusterViewOf(nodes, [running("node-1", 3, "batch"), running("node-1", 1, "online"), running("node-2", 4, "online")]);
const online = podView({ uid: "incoming", workloadClass: "online", boundAtMs: undefined });
const plain = podView({ uid: "incoming", boundAtMs: undefined });

function ctxOf(pod: PodView, policy: PlacementPolicy = DEFAULT_POLICY, index?: PlacementIndex): PlacementContext {
  return { inventory, policy, nowMs: NOW_MS, cluster: { view, pod }, ...(index ? { index } : {}) };
}
const scoresOf = (pod: PodView, ctx: PlacementContext) =>
  Object.fromEntries(prioritizeNodes(podMetaOf(pod), candidates, ctx).map((s) => [s.node, s.score]));

describe("the workload-class rule in decisions", () => {
  it("given an online pod, scores the host carrying batch pods 2.25 points lower (3 x 75 %) and explain names the rule", () => {
    const base = scoresOf(plain, ctxOf(plain));
    const scores = scoresOf(online, ctxOf(online));
    expect(scores["node-2"]).to.equal(base["node-2"]);
    expect(base["node-1"]! - scores["node-1"]!).to.be.closeTo(2.25, 1e-9);
    const [batchy, quiet] = explainNodes(podMetaOf(online), candidates, ctxOf(online));
    const adjustment = batchy!.penalties.adjustments.find((a) => a.rule === "workload-class");
    expect(adjustment).to.deep.equal({
      rule: "workload-class",
      points: 2.25,
      detail: "online pod: batch pods hold 75 % of the expected CPU of this host's pods (3.0 of 4.0 cores) x 3 points",
    });
    expect(quiet!.penalties.adjustments.map((a) => a.rule)).not.to.include("workload-class");
  });

  it("given an unclassed pod after an online one on the same index, does not answer it the online pod's kept decision", () => {
    const index = new PlacementIndex(inventory, DEFAULT_POLICY, view);
    const online1 = scoresOf(online, ctxOf(online, DEFAULT_POLICY, index));
    const plain1 = scoresOf(plain, ctxOf(plain, DEFAULT_POLICY, index));
    expect(plain1["node-1"]).to.be.above(online1["node-1"]!);
  });

  it("given an online pool without esx-batch, puts node-1 in FailedNodes with a host-free wire text", () => {
    const policy = policyWith({
      workloadClasses: { ...DEFAULT_WORKLOAD_CLASSES, pools: { online: { clusters: [], hostNames: ["esx-quiet"] } } },
    });
    const meta = podMetaOf(online);
    const out = filterNodes(meta, candidates, ctxOf(online, policy));
    expect(out.passed).to.deep.equal(["node-2"]);
    const wire = toFilterResultWire({ mode: "nodeNames", nodes: candidates, pod: meta } as unknown as ParsedExtenderArgs, out);
    expect(wire.FailedNodes).to.deep.equal({ "node-1": "node(s) on ESXi hosts outside the pod's workload class pool (online)" });
    expect(filterNodes(podMetaOf(plain), candidates, ctxOf(plain, policy)).passed, "a pod without a class").to.deep.equal([
      "node-1",
      "node-2",
    ]);
  });
});
