import { expect } from "chai";
import type { ClusterView } from "../../src/model/cluster.js";
import { buildDebugNodes, listsFromCache } from "../../src/server/debug-nodes.js";
import { RecentNodes } from "../../src/server/recent-nodes.js";
import { clusterViewOf, nodeView } from "../fixtures/cluster.js";
import { countingVmPasses, hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";

const inventory = inventoryOf(
  [hostView({ id: "host-1", name: "esx-01" })],
  [vmView({ id: "vm-1", name: "w1", hostId: "host-1", biosUuid: undefined })],
);
const rules = ["providerID", "systemUUID", "name"] as const;

describe("buildDebugNodes", () => {
  it("given a synced cache, lists its nodes (sorted) with the rule that matched or why not", () => {
    const view = { ...clusterViewOf([nodeView({ name: "w1" }), nodeView({ name: "a-ghost" })]), syncedAtMs: NOW_MS };
    const out = buildDebugNodes(inventory, rules, view, () => [{ name: "never-used" }]);
    expect(out).to.deep.include({ source: "informer cache", mapped: 1, unmapped: 1 });
    expect(out.nodes.map((n) => [n.node, n.mapped])).to.deep.equal([
      ["a-ghost", false],
      ["w1", true],
    ]);
  });

  it("given many nodes, builds the VM lookup tables once, not once per node", () => {
    const names = Array.from({ length: 40 }, (_, i) => `w${i}`);
    const counted = countingVmPasses(
      inventoryOf(
        [hostView({ id: "host-1", name: "esx-01" })],
        names.map((name, i) => vmView({ id: `vm-${i}`, name, hostId: "host-1", biosUuid: undefined })),
      ),
    );
    const view = { ...clusterViewOf(names.map((name) => nodeView({ name }))), syncedAtMs: NOW_MS };
    const out = buildDebugNodes(counted.inventory, rules, view, () => []);
    expect(out.mapped).to.equal(40);
    expect(counted.passes()).to.equal(1);
  });

  it("given no cache, lists the nodes seen in recent requests", () => {
    const recent = new RecentNodes(2);
    recent.saw([{ name: "old" }, { name: "w1" }]);
    recent.saw([{ name: "x" }]);
    const out = buildDebugNodes(inventory, rules, undefined, () => recent.list());
    expect(out.source).to.match(/recent extender requests/);
    // At most 2 remembered: "old" was forgotten first.
    expect(out.nodes.map((n) => n.node)).to.deep.equal(["w1", "x"]);
  });

  it("given a node seen again, forgets the least recently seen first, and keeps the latest identity", () => {
    const recent = new RecentNodes(3);
    recent.saw([{ name: "a" }, { name: "b" }, { name: "c" }]);
    recent.saw([{ name: "a", providerID: "vsphere://42" }]);
    recent.saw([{ name: "d" }]);
    // b was seen least recently: forgotten; a keeps the identity it was seen with last.
    expect(recent.list()).to.deep.equal([{ name: "a", providerID: "vsphere://42" }, { name: "c" }, { name: "d" }]);
  });

  it("given the same list sent again and again, remembers each node in the order last seen", () => {
    const recent = new RecentNodes(3);
    recent.saw([{ name: "a" }, { name: "b" }]);
    recent.saw([{ name: "a" }, { name: "b" }]);
    recent.saw([{ name: "c" }]);
    recent.saw([{ name: "a" }, { name: "b" }]);
    recent.saw([{ name: "d" }]);
    // c was seen before the last a and b: forgotten first.
    expect(recent.list().map((n) => n.name)).to.deep.equal(["a", "b", "d"]);
    recent.saw([{ name: "a", systemUUID: "4210" }, { name: "b" }]);
    expect(recent.list()[0]).to.deep.equal({ name: "a", systemUUID: "4210" });
  });

  it("given the informer's cache lists the nodes, keeps none of the requests' nodes (kube-scheduler sends new ones with every pod)", () => {
    const informer: { view?: ClusterView } = {};
    const recent = new RecentNodes(10, () => !listsFromCache(informer.view));
    recent.saw([{ name: "a" }]);
    informer.view = { ...clusterViewOf([nodeView({ name: "w1" })]), syncedAtMs: NOW_MS };
    recent.saw([{ name: "b" }]);
    expect(recent.list().map((n) => n.name)).to.deep.equal(["a"]);
  });
});
