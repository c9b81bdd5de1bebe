import { expect } from "chai";
import { ClusterState } from "../../src/cluster/cluster-state.js";
import type { NodeView, PodView } from "../../src/model/cluster.js";

const zero = { cpuMilli: 0, memoryBytes: 0 };
const node = (name: string): NodeView => ({ name, allocatable: zero, labels: {}, annotations: {} });
const pod = (name: string, nodeName?: string, terminal = false): PodView => ({
  namespace: "ns",
  name,
  uid: name,
  requests: zero,
  limits: zero,
  expectedDemand: zero,
  terminal,
  ...(nodeName ? { nodeName, boundAtMs: 1 } : {}),
});
const names = (pods: readonly PodView[] | undefined): string[] => (pods ?? []).map((p) => p.name).sort();

describe("ClusterState", () => {
  it("given no change, returns the very same snapshot", () => {
    const s = new ClusterState();
    s.setNode("n1", node("n1"));
    const a = s.snapshot({ lastEventMs: 5 });
    expect(s.snapshot({ lastEventMs: 5 })).to.equal(a);
  });

  it("given a pod moving between nodes, updates both lists and leaves the old snapshot untouched", () => {
    const s = new ClusterState();
    s.setPod("ns/a", pod("a", "n1"));
    s.setPod("ns/b", pod("b", "n1"));
    const before = s.snapshot({});
    s.setPod("ns/a", pod("a", "n2"));
    const after = s.snapshot({});
    expect(names(before.podsByNode.get("n1"))).to.deep.equal(["a", "b"]);
    expect(names(after.podsByNode.get("n1"))).to.deep.equal(["b"]);
    expect(names(after.podsByNode.get("n2"))).to.deep.equal(["a"]);
    expect(after.nodes).to.equal(before.nodes, "untouched node map is shared");
  });

  it("given a pod turning terminal, unbound or deleted, drops it from its node", () => {
    const s = new ClusterState();
    s.setPod("ns/a", pod("a", "n1"));
    s.setPod("ns/b", pod("b", "n1"));
    s.setPod("ns/c", pod("c", "n1"));
    s.setPod("ns/a", pod("a", "n1", true));
    s.setPod("ns/b", pod("b"));
    s.setPod("ns/c", undefined);
    expect(s.snapshot({}).podsByNode.has("n1")).to.equal(false);
    expect(s.counts().pods).to.equal(0);
  });

  it("given a bound pod, remembers its binding time by key, and tells a held pod without one from an unknown pod", () => {
    const s = new ClusterState();
    s.setPod("ns/a", pod("a", "n1"));
    s.setPod("ns/b", { ...pod("b", "n1"), boundAtMs: undefined });
    expect(s.bindingOf("ns/a")).to.deep.equal({ boundAtMs: 1 });
    expect(s.bindingOf("ns/b")).to.deep.equal({ boundAtMs: undefined });
    expect(s.bindingOf("ns/x")).to.equal(undefined);
  });

  it("given namespace labels, exposes and removes them", () => {
    const s = new ClusterState();
    s.setNamespace("team", { "hvx.io/oversell-cpu": "2" });
    expect(s.snapshot({}).namespaces.get("team")).to.deep.equal({ "hvx.io/oversell-cpu": "2" });
    s.setNamespace("team", undefined);
    expect(s.snapshot({}).namespaces.has("team")).to.equal(false);
  });
});
