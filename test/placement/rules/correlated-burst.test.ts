import { expect } from "chai";
import { renderExplainTable } from "../../../src/explain-table.js";
import { RequestMemo, type PlacementContext } from "../../../src/placement/decide-node.js";
import { explainNodes } from "../../../src/placement/explain-node.js";
import { filterNodes, prioritizeNodes } from "../../../src/placement/filter-nodes.js";
import { formatReasons } from "../../../src/protocol/format-reason.js";
import { toExplainWire } from "../../../src/protocol/explain-wire.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../../fixtures/cluster.js";
import { correlatedView, polledInventory } from "../../fixtures/correlated-history.js";
import { dbAndQuietInventory, dbAndQuietNodes } from "../../fixtures/db-and-quiet-hosts.js";
import { NOW_MS } from "../../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../../fixtures/policy.js";

// Two 32-core hosts at 2600 MHz (83 200 MHz). esx-db carries a 16-vCPU database VM beside its
// node VM and runs at 60 %: 49 920 MHz used - 6 x 0.5 CPU x 2600 of pods' expected demand
// = 42 120, capped at the database VM's 16 x 2600 = 41 600 MHz: 41 600 MHz of room left.
// esx-quiet has only its node VM: 83 200 MHz of room.
// Six api replicas (limit 2 CPUs) on each node, the incoming one makes 7: 14 x 2600 = 36 400 MHz:
//   esx-db:    36 400 / 41 600 = 0.875 -> round(6 x (0.875 - 0.75) / 0.25) = 3 points
//   esx-quiet: 36 400 / 83 200 = 0.4375 -> 0 points (the fewest of the candidates)
const inventory = dbAndQuietInventory;
const nodes = dbAndQuietNodes;
const API = "ReplicaSet/shop/api";
const replica = (nodeName: string) => podView({ nodeName, ownerKey: API, limits: amounts(2, 1) });
const bound = [...Array.from({ length: 6 }, () => replica("node-db")), ...Array.from({ length: 6 }, () => replica("node-quiet"))];
const allocatable = amounts(15.9, 60);
const view = clusterViewOf(
  nodes.map((n) => nodeView({ ...n, allocatable })),
  bound,
);
const incoming = podView({ uid: "incoming", ownerKey: API, limits: amounts(2, 1), boundAtMs: undefined });
const contextOf = (over: { dbUsage?: number | undefined; pod?: typeof incoming; hardShare?: number } = {}): PlacementContext => ({
  inventory: inventory("dbUsage" in over ? over.dbUsage : 60),
  policy: { ...DEFAULT_POLICY, correlation: { ...DEFAULT_POLICY.correlation!, ...(over.hardShare ? { hardShare: over.hardShare } : {}) } },
  nowMs: NOW_MS,
  cluster: { view, pod: over.pod ?? incoming },
});
const adjustmentOf = (ctx: PlacementContext, node: string, candidates = nodes) =>
  explainNodes(podMetaOf(ctx.cluster!.pod), candidates, ctx)
    .find((e) => e.node === node)!
    .penalties.adjustments.find((a) => a.rule === "correlated-burst");

describe("the correlated-burst rule", () => {
  it("given a host with non-Kubernetes load, takes 3 points off it and none off the quiet host", () => {
    const ctx = contextOf();
    expect(adjustmentOf(ctx, "node-db")).to.deep.equal({
      rule: "correlated-burst",
      points: 3,
      detail: "1 group 36.4 of 41.6 GHz left = 0.88, 3 points, fewest 0",
    });
    expect(adjustmentOf(ctx, "node-quiet")!.points).to.equal(0);
    const [db, quiet] = prioritizeNodes(podMetaOf(incoming), nodes, ctx);
    expect(db!.score).to.be.below(quiet!.score);
  });

  it("given explain, shows the points by the rule's name in the table", () => {
    const ctx = contextOf();
    const table = renderExplainTable(toExplainWire("shop/api-7", explainNodes(podMetaOf(incoming), nodes, ctx)));
    expect(table).to.match(/node-db.*correlated-burst -3/);
    expect(table).to.not.match(/node-quiet.*correlated-burst/);
  });

  it("given the busy host as the only candidate, takes no points (ranked against the best candidate)", () => {
    expect(adjustmentOf(contextOf(), "node-db", [nodes[0]!])!.points).to.equal(0);
  });

  it("given a hard share of 0.8, rejects the busy host with the group, the room and the shares (resolvable)", () => {
    const { decisions } = filterNodes(podMetaOf(incoming), nodes, contextOf({ hardShare: 0.8 }));
    const db = decisions.find((d) => d.node === "node-db")!;
    expect(db.verdict).to.equal("reject");
    expect(db.unresolvable).to.equal(false);
    expect(formatReasons(db.reasons)).to.equal(
      "ESXi host esx-db (host-1): ReplicaSet/shop/api and the groups bursting with it expect 36.4 GHz / 41.6 GHz left by non-Kubernetes load (41.6 GHz) = 0.88 > 0.80 (correlated burst cap)",
    );
    expect(decisions.find((d) => d.node === "node-quiet")!.verdict).to.equal("pass");
  });

  it("given a hard share of 0.8 and a filter that answers verdicts alone, still rejects the busy host", () => {
    const filter = (hardShare?: number) =>
      filterNodes(podMetaOf(incoming), nodes, contextOf({ hardShare }), new RequestMemo(nodes, false)).passed;
    expect(filter(0.8)).to.deep.equal(["node-quiet"]);
    expect(filter()).to.deep.equal(["node-db", "node-quiet"]);
  });

  it("given no CPU usage sample on the host with another VM, has no opinion on it (no adjustment)", () => {
    expect(adjustmentOf(contextOf({ dbUsage: undefined }), "node-db")).to.equal(undefined);
  });

  it("given a Job's pod, has no opinion (its pods run flat out, they do not burst together)", () => {
    const job = { ...incoming, ownerKey: "Job/shop/nightly" };
    expect(adjustmentOf(contextOf({ pod: job }), "node-db")).to.equal(undefined);
  });

  it("given trusted history in which api and checkout rise together on their host, counts checkout's limits into api's group", () => {
    // test/fixtures/correlated-history.ts: esx-db carries 4 api and 2 checkout replicas and its history rises on its own.
    const ctx = (learnGroups: boolean): PlacementContext => ({
      ...contextOf(),
      inventory: polledInventory(true),
      policy: { ...DEFAULT_POLICY, correlation: { ...DEFAULT_POLICY.correlation!, learnGroups } },
      cluster: { view: correlatedView, pod: incoming },
    });
    expect(adjustmentOf(ctx(true), "node-db")!.detail).to.match(/^2 groups 36\.4 of 41\.6 GHz left/);
    expect(adjustmentOf(ctx(false), "node-db")!.detail).to.match(/^1 group 26\.0 of 41\.6 GHz left/);
  });

  it("given a pod without a replica group, has no opinion", () => {
    const bare = { ...incoming, ownerKey: undefined };
    expect(adjustmentOf(contextOf({ pod: bare }), "node-db")).to.equal(undefined);
  });
});
