import { expect } from "chai";
import { renderExplainTable } from "../../../src/explain-table.js";
import type { PodView } from "../../../src/model/cluster.js";
import { indexOf, RequestMemo, type PlacementContext } from "../../../src/placement/decide-node.js";
import { explainNodes } from "../../../src/placement/explain-node.js";
import { filterNodes, prioritizeNodes } from "../../../src/placement/filter-nodes.js";
import { HOST_SPREAD_ANNOTATION } from "../../../src/placement/host-spread.js";
import { toExplainWire } from "../../../src/protocol/explain-wire.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../../fixtures/cluster.js";
import { dbAndQuietInventory, dbAndQuietNodes } from "../../fixtures/db-and-quiet-hosts.js";
import { NOW_MS } from "../../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../../fixtures/policy.js";

// Two 32-core hosts at 2600 MHz (83 200 MHz). esx-db carries a 16-vCPU database VM beside its
// node VM and runs at 60 %: 49 920 MHz used - 3 x 0.5 CPU x 2600 of pods' expected demand, capped
// at the database VM's 16 x 2600 = 41 600 MHz: half the host is left (weight 0.5). esx-quiet has
// only its node VM (weight 1). esx-db carries 3 api replicas, esx-quiet 6.
//   plain count:  esx-db 3 = the fewest (0 points); esx-quiet 6 - 3 = 3 above -> 6 points.
//   by room:      densities with the pod (3 + 1) / 0.5 = 8 and (6 + 1) / 1 = 7: esx-quiet is the leanest;
//                 esx-db's even count is 7 x 0.5 - 1 = 2.5, 0.5 above -> 1 point; esx-quiet 0.
const inventory = dbAndQuietInventory;
const nodes = dbAndQuietNodes;
const API = "ReplicaSet/shop/api";
const replicas = (owner: string, nodeName: string, n: number) =>
  Array.from({ length: n }, () => podView({ nodeName, ownerKey: owner, limits: amounts(0.5, 1) }));
const incoming = podView({ uid: "incoming", ownerKey: API, limits: amounts(0.5, 1), boundAtMs: undefined });

function contextOf(over: { dbUsage?: number | undefined; pod?: PodView; spreadByRoom?: boolean } = {}): PlacementContext {
  const pod = over.pod ?? incoming;
  const owner = pod.ownerKey ?? API;
  const view = clusterViewOf(
    nodes.map((n) => nodeView({ ...n, allocatable: amounts(15.9, 60) })),
    [...replicas(owner, "node-db", 3), ...replicas(owner, "node-quiet", 6)],
  );
  return {
    inventory: inventory("dbUsage" in over ? over.dbUsage : 60),
    policy: { ...DEFAULT_POLICY, correlation: { ...DEFAULT_POLICY.correlation!, spreadByRoom: over.spreadByRoom ?? true } },
    nowMs: NOW_MS,
    cluster: { view, pod },
  };
}

const spreadOf = (ctx: PlacementContext, node: string, annotations: Record<string, string> = {}) =>
  explainNodes({ ...podMetaOf(ctx.cluster!.pod), annotations }, nodes, ctx)
    .find((e) => e.node === node)!
    .penalties.adjustments.find((a) => a.rule === "replica-spread");

describe("the replica-spread rule, weighed by each host's burst room", () => {
  const cases: Array<{ name: string; ctx: PlacementContext; db: number; quiet: number }> = [
    { name: "given half of esx-db left by its other VMs, returns 1 point on esx-db and 0 on esx-quiet", ctx: contextOf(), db: 1, quiet: 0 },
    {
      name: "given spreadByRoom off, returns the plain count's 0 on esx-db and 6 on esx-quiet",
      ctx: contextOf({ spreadByRoom: false }),
      db: 0,
      quiet: 6,
    },
    {
      name: "given no CPU usage sample on esx-db (unknown room), returns the plain count's 0 and 6",
      ctx: contextOf({ dbUsage: undefined }),
      db: 0,
      quiet: 6,
    },
    {
      name: "given a Job's pod (it does not burst together), returns the plain count's 0 and 6",
      ctx: contextOf({ pod: { ...incoming, ownerKey: "Job/shop/nightly" } }),
      db: 0,
      quiet: 6,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      expect(spreadOf(c.ctx, "node-db")!.points).to.equal(c.db);
      expect(spreadOf(c.ctx, "node-quiet")!.points).to.equal(c.quiet);
    });

  it("given a filter (verdicts alone), reads no candidate's fewest, and the prioritize after it scores as a cold index does", () => {
    class CountingMemo extends RequestMemo {
      reads = 0;
      override leastOnCandidates(...args: Parameters<RequestMemo["leastOnCandidates"]>) {
        this.reads++;
        return super.leastOnCandidates(...args);
      }
    }
    const ctx = contextOf();
    const shared = { ...ctx, index: indexOf(ctx) };
    const pod = podMetaOf(ctx.cluster!.pod);
    const filterMemo = new CountingMemo(nodes, false);
    expect(filterNodes(pod, nodes, shared, filterMemo).passed).to.deep.equal(["node-db", "node-quiet"]);
    expect(filterMemo.reads).to.equal(0);
    const scores = (c: PlacementContext) => prioritizeNodes(pod, nodes, c).map((s) => s.score);
    expect(scores(shared)).to.deep.equal(scores({ ...ctx, index: indexOf(ctx) }));
  });

  it("given esx-db's room, explains the even count by room beside the points", () => {
    expect(spreadOf(contextOf(), "node-db")).to.deep.equal({
      rule: "replica-spread",
      points: 1,
      detail: "3 replicas here, even 2.5 by room (0.50 of the host left by other VMs)",
    });
    const table = renderExplainTable(toExplainWire("shop/api-7", explainNodes(podMetaOf(incoming), nodes, contextOf())));
    expect(table).to.match(/node-db.*replica-spread -1/);
    expect(table).to.not.match(/node-quiet.*replica-spread -/);
  });

  it("given a required spread, keeps the plain count (the skew the operator asked for)", () => {
    const required = { [HOST_SPREAD_ANNOTATION]: "required" };
    expect(spreadOf(contextOf(), "node-quiet", required)).to.deep.equal({
      rule: "replica-spread",
      points: 6,
      detail: "6 replicas here, fewest 3",
    });
  });
});
