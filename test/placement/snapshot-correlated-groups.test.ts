import { expect } from "chai";
import type { PlacementContext } from "../../src/placement/decide-node.js";
import { explainNodes } from "../../src/placement/explain-node.js";
import { prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { LatestPlacementIndex } from "../../src/placement/placement-index.js";
import { podMetaOf } from "../fixtures/cluster.js";
import { correlatedView, incomingApi, polledInventory } from "../fixtures/correlated-history.js";
import { dbAndQuietNodes } from "../fixtures/db-and-quiet-hosts.js";
import { NOW_MS } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const nodes = dbAndQuietNodes;
const view = correlatedView;
const incoming = incomingApi;
const polled = (hostOneRises: boolean): PlacementContext => ({
  inventory: polledInventory(hostOneRises),
  policy: DEFAULT_POLICY,
  nowMs: NOW_MS,
  cluster: { view, pod: incoming },
});
const withIndex = (ctx: PlacementContext, latest: LatestPlacementIndex): PlacementContext => ({
  ...ctx,
  index: latest.indexFor(ctx.inventory, view, ctx.policy),
});
const scores = (ctx: PlacementContext) => prioritizeNodes(podMetaOf(incoming), nodes, ctx).map((s) => `${s.node} ${s.score}`);
const groupsOnDb = (ctx: PlacementContext) =>
  explainNodes(podMetaOf(incoming), nodes, ctx)
    .find((e) => e.node === "node-db")!
    .penalties.adjustments.find((a) => a.rule === "correlated-burst")!.detail;

describe("the correlated groups of a placement index", () => {
  it("given the first forecasts, learns them in the request that needs them, also when learning in the background", () => {
    const latest = new LatestPlacementIndex(true);
    const ctx = withIndex(polled(true), latest);
    expect(groupsOnDb(ctx)).to.match(/^2 groups 36\.4 of 41\.6 GHz/);
    expect(latest.groupsToLearn).to.equal(false);
  });

  it("given a poll's new forecasts, answers with the earlier groups until learnt in steps, then as a cold index does", () => {
    const latest = new LatestPlacementIndex(true);
    const first = withIndex(polled(true), latest);
    const before = scores(first);

    const next = withIndex(polled(false), latest);
    expect(groupsOnDb(next), "the earlier groups stand in").to.match(/^2 groups/);
    expect(latest.groupsToLearn).to.equal(true);
    expect(scores(next), "kept with the earlier groups").to.deep.equal(before);

    let steps = 1;
    while (!latest.learnGroups(0)) steps++;
    expect(steps, "one host or group per step with no time budget").to.be.above(2);
    expect(latest.groupsToLearn).to.equal(false);

    const cold = withIndex(polled(false), new LatestPlacementIndex(true));
    expect(groupsOnDb(next), "no decision kept with the earlier groups").to.match(/^1 group 26\.0 of 41\.6 GHz/);
    expect(scores(next)).to.deep.equal(scores(cold));
  });

  it("given another index learning the same forecasts meanwhile (explain's), keeps its answer until its own step takes them", () => {
    const latest = new LatestPlacementIndex(true);
    groupsOnDb(withIndex(polled(true), latest));
    const ctx = polled(false);
    const next = withIndex(ctx, latest);
    expect(groupsOnDb(next)).to.match(/^2 groups/);
    expect(groupsOnDb({ ...ctx, index: undefined }), "a fresh index of the same snapshots learns at once").to.match(/^1 group/);
    expect(groupsOnDb(next), "decisions of one index never mix the two").to.match(/^2 groups/);
    expect(latest.learnGroups(0), "taken in one step").to.equal(true);
    expect(groupsOnDb(next)).to.match(/^1 group/);
  });

  it("given no background learning (the simulator), learns a poll's new forecasts in the request that needs them", () => {
    const latest = new LatestPlacementIndex();
    withIndex(polled(true), latest);
    const next = withIndex(polled(false), latest);
    expect(groupsOnDb(next)).to.match(/^1 group/);
    expect(latest.groupsToLearn).to.equal(false);
  });
});
