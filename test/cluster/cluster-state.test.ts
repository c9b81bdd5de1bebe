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

  it("given DaemonSet pods bound, pending and deleted, lists namespace/uid while a bound one is held, and copies the set only when it changes", () => {
    const s = new ClusterState();
    const ds = (name: string, nodeName: string | undefined, uid: string): PodView => ({
      ...pod(name, nodeName),
      eviction: { ownerKinds: ["DaemonSet"], controllerKind: "DaemonSet", daemonSetUid: uid, localStorage: false },
    });
    s.setPod("ns/pending", ds("pending", undefined, "uid-a"));
    expect([...s.snapshot({}).daemonSets!], "a pending pod proves nothing").to.deep.equal([]);
    s.setPod("ns/a1", ds("a1", "n1", "uid-a"));
    s.setPod("ns/a2", ds("a2", "n2", "uid-a"));
    const first = s.snapshot({});
    expect([...first.daemonSets!]).to.deep.equal(["ns/uid-a"]);
    s.setPod("ns/a1", undefined);
    s.setPod("ns/plain", pod("plain", "n1"));
    expect(s.snapshot({}).daemonSets, "same DaemonSets: same set").to.equal(first.daemonSets);
    s.setPod("ns/a2", { ...ds("a2", "n2", "uid-a"), terminal: true });
    expect([...s.snapshot({}).daemonSets!]).to.deep.equal([]);
  });

  it("given namespace labels, exposes and removes them", () => {
    const s = new ClusterState();
    s.setNamespace("team", { "hvx.io/oversell-cpu": "2" });
    expect(s.snapshot({}).namespaces.get("team")).to.deep.equal({ "hvx.io/oversell-cpu": "2" });
    s.setNamespace("team", undefined);
    expect(s.snapshot({}).namespaces.has("team")).to.equal(false);
  });

  describe("pending pods (the in-flight ledger's feed)", () => {
    const pending = (name: string, uid = name): PodView => ({ ...pod(name), uid });
    // Each row: pod events in order (key ns/<name>), then what the state holds pending and what it told the ledger.
    const cases: Array<{ name: string; events: Array<[string, PodView | undefined]>; pending: string[]; settled: string[] }> = [
      { name: "a pending pod", events: [["a", pending("a")]], pending: ["a"], settled: [] },
      { name: "a pod bound from the start", events: [["a", pod("a", "n1")]], pending: [], settled: [] },
      {
        name: "a pending pod then bound",
        events: [
          ["a", pending("a")],
          ["a", pod("a", "n2")],
        ],
        pending: [],
        settled: ["a bound"],
      },
      {
        name: "a pending pod then deleted",
        events: [
          ["a", pending("a")],
          ["a", undefined],
        ],
        pending: [],
        settled: ["a deleted"],
      },
      {
        name: "a pending pod turning Failed",
        events: [
          ["a", pending("a")],
          ["a", pod("a", undefined, true)],
        ],
        pending: [],
        settled: ["a deleted"],
      },
      {
        name: "a pending pod updated while pending",
        events: [
          ["a", pending("a")],
          ["a", pending("a")],
        ],
        pending: ["a"],
        settled: [],
      },
      {
        name: "a pending pod replaced by a new one of the same name (another uid)",
        events: [
          ["a", pending("a", "uid-1")],
          ["a", pending("a", "uid-2")],
        ],
        pending: ["uid-2"],
        settled: ["uid-1 deleted"],
      },
    ];
    for (const c of cases) {
      it(`given ${c.name}, holds ${JSON.stringify(c.pending)} pending and tells ${JSON.stringify(c.settled)}`, () => {
        const told: string[] = [];
        const s = new ClusterState((uid, how) => told.push(`${uid} ${how}`));
        for (const [name, view] of c.events) s.setPod(`ns/${name}`, view);
        for (const uid of ["a", "uid-1", "uid-2"]) expect(s.pendingPod(uid) !== undefined, uid).to.equal(c.pending.includes(uid));
        expect(told).to.deep.equal(c.settled);
        expect(s.pendingPod(c.pending[0] ?? "none")?.nodeName).to.equal(undefined);
      });
    }
  });

  it("given bindings one after another on 400 nodes, shares the node map between snapshots and answers what a fresh copy holds", () => {
    const s = new ClusterState();
    const model = new Map<string, string[]>();
    const bind = (name: string, node: string) => {
      s.setPod(`ns/${name}`, pod(name, node));
      model.set(node, [...(model.get(node) ?? []), name].sort());
    };
    for (let i = 0; i < 400; i++) bind(`p${i}`, `n${i}`);
    let previous = s.snapshot({});
    for (let i = 0; i < 100; i++) {
      const node = `n${(i * 7) % 400}`;
      bind(`q${i}`, node);
      if (i % 10 === 0) {
        s.setPod(`ns/p${i + 1}`, undefined);
        const left = model.get(`n${i + 1}`)!.filter((n) => n !== `p${i + 1}`);
        if (left.length > 0) model.set(`n${i + 1}`, left);
        else model.delete(`n${i + 1}`);
      }
      const next = s.snapshot({});
      expect(names(previous.podsByNode.get(node))).to.not.include(`q${i}`, "the old snapshot is untouched");
      expect(next.nodes).to.equal(previous.nodes);
      previous = next;
    }
    const got = new Map([...previous.podsByNode].map(([n, pods]) => [n, names(pods)]));
    expect(got).to.deep.equal(model);
    expect(previous.podsByNode.size).to.equal(model.size);
    for (const [n, pods] of model) expect(names(previous.podsByNode.get(n)), n).to.deep.equal(pods);
  });

  it("given node updates one after another on 300 nodes, leaves old snapshots untouched and answers what a fresh copy holds", () => {
    const s = new ClusterState();
    const model = new Map<string, NodeView>();
    const set = (name: string, view: NodeView | undefined) => {
      s.setNode(name, view);
      if (view) model.set(name, view);
      else model.delete(name);
    };
    for (let i = 0; i < 300; i++) set(`n${i}`, node(`n${i}`));
    let previous = s.snapshot({});
    for (let i = 0; i < 60; i++) {
      const updated = { ...node(`n${i * 5}`), labels: { round: String(i) } };
      set(`n${i * 5}`, updated);
      if (i % 6 === 0) set(`n${i * 5 + 1}`, undefined);
      const next = s.snapshot({});
      expect(previous.nodes.get(`n${i * 5}`)?.labels.round, "the old snapshot is untouched").to.not.equal(String(i));
      expect(next.nodes.get(`n${i * 5}`)).to.equal(updated);
      previous = next;
    }
    expect(new Map(previous.nodes)).to.deep.equal(model);
    expect(previous.nodes.size).to.equal(model.size);
  });

  it("given bindings, updates and deletions, keeps the lowest running priority equal to a scan of podsByNode", () => {
    const s = new ClusterState();
    const withPriority = (name: string, priority: number | undefined, nodeName?: string): PodView => ({
      ...pod(name, nodeName),
      ...(priority !== undefined ? { eviction: { ownerKinds: [], priority, localStorage: false } } : {}),
    });
    const scan = (pods: ReadonlyMap<string, readonly PodView[]>): number | null => {
      const all = [...pods.values()].flat().map((p) => p.eviction?.priority ?? 0);
      return all.length === 0 ? null : Math.min(...all);
    };
    const steps: Array<[string, PodView | undefined]> = [
      ["ns/a", withPriority("a", 1000, "n1")],
      ["ns/b", withPriority("b", -5)],
      ["ns/b", withPriority("b", -5, "n2")],
      ["ns/c", withPriority("c", undefined, "n1")],
      ["ns/b", undefined],
      ["ns/c", withPriority("c", undefined, "n3")],
      ["ns/c", { ...withPriority("c", undefined, "n3"), terminal: true }],
      ["ns/a", undefined],
    ];
    const seen: Array<number | null | undefined> = [];
    for (const [key, view] of steps) {
      s.setPod(key, view);
      const snap = s.snapshot({});
      expect(snap.lowestRunningPriority).to.equal(scan(snap.podsByNode));
      seen.push(snap.lowestRunningPriority);
    }
    expect(seen).to.deep.equal([1000, 1000, -5, -5, 0, 0, 1000, null]);
  });
});
