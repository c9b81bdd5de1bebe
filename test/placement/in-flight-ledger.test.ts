import { expect } from "chai";
import type { PodView } from "../../src/model/cluster.js";
import {
  IN_FLIGHT_TTL_MS,
  InFlightLedger,
  withInFlight,
  type InFlightDropReason,
  type InFlightLedgerOptions,
} from "../../src/placement/in-flight-ledger.js";
import { limitOvercommitReasons } from "../../src/placement/limit-overcommit.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";

const T = 1_000_000;
const nodes = [nodeView({ name: "n1" }), nodeView({ name: "n2" })];

/** A ledger whose informer holds `pending` (uid -> pod, mutable by the test), with its drops and refusals counted. */
function ledgerOf(pendingUids: readonly string[], over: Partial<InFlightLedgerOptions> = {}) {
  const pending = new Map<string, PodView>(pendingUids.map((uid) => [uid, podView({ uid, boundAtMs: undefined })]));
  const drops: InFlightDropReason[] = [];
  let refused = 0;
  const ledger = new InFlightLedger({
    pendingPod: (uid) => pending.get(uid),
    onDrop: (reason) => drops.push(reason),
    onRefused: () => refused++,
    ...over,
  });
  return { ledger, pending, drops, refused: () => refused };
}
const uids = (l: InFlightLedger, nowMs = T) => l.current(nowMs).map((e) => e.pod.uid);

describe("InFlightLedger", () => {
  it("holds a pod hvx answered for, on the node it scored best, bound at the answer's time", () => {
    const { ledger } = ledgerOf(["a"]);
    expect(ledger.record("a", "n1", T)).to.equal(true);
    expect(ledger.current(T + 1000).map((e) => [e.pod.uid, e.pod.nodeName, e.pod.boundAtMs])).to.deep.equal([["a", "n1", T]]);
  });

  it("counts the pod as the informer holds it, whatever a request body claimed", () => {
    const { ledger, pending } = ledgerOf([]);
    pending.set("a", podView({ uid: "a", requests: amounts(0.25, 1) }));
    ledger.record("a", "n1", T);
    expect(ledger.current(T)[0]!.pod.requests).to.deep.equal(amounts(0.25, 1));
  });

  it("keeps only the latest answer for a pod asked about twice", () => {
    const { ledger, drops } = ledgerOf(["a"]);
    ledger.record("a", "n1", T);
    ledger.record("a", "n2", T + 5);
    expect(ledger.current(T + 5).map((e) => e.pod.nodeName)).to.deep.equal(["n2"]);
    expect(drops).to.deep.equal([]);
  });

  // Each row: the informer's pending pods, what happens, the entries left and the drops counted.
  const rules: Array<{
    name: string;
    pending: string[];
    act: (l: InFlightLedger) => void;
    at?: number;
    want: string[];
    dropped: InFlightDropReason[];
    refused?: number;
    over?: Partial<InFlightLedgerOptions>;
  }> = [
    {
      name: "a forged uid (unknown to the informer)",
      pending: [],
      act: (l) => l.record("forged", "n1", T),
      want: [],
      dropped: [],
      refused: 1,
    },
    {
      name: "a uid the informer holds bound, not pending",
      pending: ["other"],
      act: (l) => l.record("bound-pod", "n1", T),
      want: [],
      dropped: [],
      refused: 1,
    },
    {
      name: "the pod then shown bound on another node",
      pending: ["a", "b"],
      act: (l) => (l.record("a", "n1", T), l.record("b", "n1", T), l.settled("a", "bound")),
      want: ["b"],
      dropped: ["bound"],
    },
    {
      name: "the pod then deleted",
      pending: ["a"],
      act: (l) => (l.record("a", "n1", T), l.settled("a", "deleted")),
      want: [],
      dropped: ["deleted"],
    },
    { name: "a settled pod never recorded", pending: ["a"], act: (l) => l.settled("a", "bound"), want: [], dropped: [] },
    {
      // per node 2: the third answer on n1 drops the oldest there, n2's entry stays
      name: "a node at its bound",
      pending: ["a", "b", "c", "d"],
      over: { maxPerNode: 2 },
      act: (l) => (l.record("a", "n1", T), l.record("d", "n2", T), l.record("b", "n1", T + 1), l.record("c", "n1", T + 2)),
      want: ["d", "b", "c"],
      dropped: ["node_limit"],
    },
    {
      name: "the ledger at its total bound",
      pending: ["a", "b", "c"],
      over: { maxTotal: 2 },
      act: (l) => (l.record("a", "n1", T), l.record("b", "n2", T + 1), l.record("c", "n1", T + 2)),
      want: ["b", "c"],
      dropped: ["total_limit"],
    },
    {
      name: "entries older than the TTL",
      pending: ["a", "b"],
      act: (l) => (l.record("a", "n1", T), l.record("b", "n2", T + 10_000)),
      at: T + IN_FLIGHT_TTL_MS,
      want: ["b"],
      dropped: ["expired"],
    },
  ];
  for (const r of rules) {
    it(`given ${r.name}, holds ${JSON.stringify(r.want)} and counts drops ${JSON.stringify(r.dropped)}`, () => {
      const { ledger, drops, refused } = ledgerOf(r.pending, r.over);
      r.act(ledger);
      expect(uids(ledger, r.at ?? T + 2)).to.deep.equal(r.want);
      expect(ledger.size(r.at ?? T + 2)).to.equal(r.want.length);
      expect(drops).to.deep.equal(r.dropped);
      expect(refused()).to.equal(r.refused ?? 0);
    });
  }
});

describe("InFlightLedger.viewWith", () => {
  const view = clusterViewOf(nodes, [podView({ uid: "old", nodeName: "n1" })]);
  const uidsOn = (v: ReturnType<typeof clusterViewOf>, node: string) => (v.podsByNode.get(node) ?? []).map((p) => p.uid);

  it("given a view that keeps its lowest running priority, counts an in-flight pod's priority in the merged view", () => {
    const { ledger, pending } = ledgerOf([]);
    pending.set("low", podView({ uid: "low", eviction: { ownerKinds: [], priority: -10, localStorage: false } }));
    const kept = { ...clusterViewOf(nodes, [podView({ uid: "old", nodeName: "n1" })]), lowestRunningPriority: 0 };
    expect(ledger.viewWith(kept, T, "x").lowestRunningPriority).to.equal(0);
    ledger.record("low", "n2", T);
    expect(ledger.viewWith(kept, T + 1, "x").lowestRunningPriority).to.equal(-10);
    expect(ledger.viewWith(view, T + 1, "x").lowestRunningPriority, "a view that does not keep it: computed from the lists").to.equal(
      undefined,
    );
  });

  it("answers one merged object for every new pod between two changes, a new one after a change", () => {
    const { ledger } = ledgerOf(["a", "b"]);
    ledger.record("a", "n2", T);
    const first = ledger.viewWith(view, T + 1, "x");
    expect(uidsOn(first, "n2")).to.deep.equal(["a"]);
    expect(ledger.viewWith(view, T + 2, "y")).to.equal(first);
    ledger.record("b", "n2", T + 3);
    const second = ledger.viewWith(view, T + 4, "y");
    expect(second).to.not.equal(first);
    expect(uidsOn(second, "n2")).to.deep.equal(["a", "b"]);
    const newer = clusterViewOf(nodes, []);
    expect(uidsOn(ledger.viewWith(newer, T + 5, "y"), "n1")).to.deep.equal([]);
  });

  it("given the pod being scheduled in flight itself (a retry), leaves it out of its own view", () => {
    const { ledger } = ledgerOf(["a", "b", "c"]);
    ledger.record("a", "n2", T);
    ledger.record("b", "n2", T);
    ledger.record("c", "n1", T);
    expect(uidsOn(ledger.viewWith(view, T + 1, "a"), "n2")).to.deep.equal(["b"]);
    expect(uidsOn(ledger.viewWith(view, T + 1, "x"), "n2")).to.deep.equal(["a", "b"]);
    const alone = ledger.viewWith(view, T + 1, "c");
    expect(alone.podsByNode.get("n1"), "n1 is the view's own list again").to.equal(view.podsByNode.get("n1"));
  });

  it("keeps a node's merged list object while its in-flight pods stay the same, and merges what a fresh merge does", () => {
    const { ledger } = ledgerOf(["a", "b", "c", "d", "old"]);
    const steps: Array<{ change: () => void; kept: string[]; renewed: string[] }> = [
      { change: () => ledger.record("c", "n2", T + 1), kept: ["n1"], renewed: ["n2"] },
      { change: () => ledger.record("d", "n1", T + 2), kept: ["n2"], renewed: ["n1"] },
      { change: () => ledger.settled("a", "bound"), kept: ["n2"], renewed: ["n1"] },
      // "old" is on n1 already (an informer feed out of order): the merge adds nothing there.
      { change: () => ledger.record("old", "n1", T + 3), kept: ["n2"], renewed: ["n1"] },
    ];
    ledger.record("a", "n1", T);
    ledger.record("b", "n2", T);
    let previous = ledger.viewWith(view, T + 5, "x");
    for (const step of steps) {
      step.change();
      const next = ledger.viewWith(view, T + 5, "x");
      for (const n of step.kept) expect(next.podsByNode.get(n), n).to.equal(previous.podsByNode.get(n));
      for (const n of step.renewed) expect(next.podsByNode.get(n), n).to.not.equal(previous.podsByNode.get(n));
      const fresh = withInFlight(view, ledger.current(T + 5));
      for (const n of ["n1", "n2"]) expect(uidsOn(next, n), n).to.deep.equal(uidsOn(fresh, n));
      previous = next;
    }
  });

  it("given a change that leaves every list as it was (a pod recorded and settled), returns the same merged object", () => {
    const { ledger } = ledgerOf(["a", "b"]);
    ledger.record("a", "n2", T);
    const before = ledger.viewWith(view, T + 1);
    ledger.record("b", "n1", T + 1);
    ledger.settled("b", "deleted");
    expect(ledger.viewWith(view, T + 2)).to.equal(before);
  });

  it("drops expired entries: after the TTL the bare view comes back", () => {
    const { ledger } = ledgerOf(["a"]);
    ledger.record("a", "n2", T);
    expect(ledger.viewWith(view, T + IN_FLIGHT_TTL_MS, "x")).to.equal(view);
  });

  it("given 5000 nodes, shares the view's map: size, keys and lookups answer the merged content", () => {
    const many = Array.from({ length: 5000 }, (_, i) => nodeView({ name: `n${i}` }));
    const big = clusterViewOf(
      many,
      many.map((n) => podView({ uid: `p-${n.name}`, nodeName: n.name })),
    );
    const { ledger } = ledgerOf(["a"]);
    ledger.record("a", "n42", T);
    const merged = ledger.viewWith(big, T + 1);
    expect(merged.podsByNode.size).to.equal(5000);
    expect(uidsOn(merged, "n42")).to.deep.equal(["p-n42", "a"]);
    expect(merged.podsByNode.get("n43")).to.equal(big.podsByNode.get("n43"));
    expect([...merged.podsByNode.keys()]).to.deep.equal([...big.podsByNode.keys()]);
    expect([...merged.podsByNode.values()].flat().length).to.equal(5001);
  });
});

describe("withInFlight", () => {
  const bound = podView({ uid: "old", nodeName: "n1" });
  const view = clusterViewOf(nodes, [bound]);
  const entry = (uid: string, node: string) => ({ pod: { ...podView({ uid }), nodeName: node, boundAtMs: T } });

  const cases = [
    { name: "nothing in flight", inFlight: [], want: { n1: ["old"], n2: [] } },
    { name: "a pod in flight on n2", inFlight: [entry("x", "n2")], want: { n1: ["old"], n2: ["x"] } },
    { name: "a pod the view already shows there", inFlight: [entry("old", "n1")], want: { n1: ["old"], n2: [] } },
    { name: "the pod being scheduled itself", inFlight: [entry("self", "n2")], want: { n1: ["old"], n2: [] } },
    { name: "a node the view does not know", inFlight: [entry("y", "gone")], want: { n1: ["old"], n2: [] } },
  ];
  for (const c of cases) {
    it(`given ${c.name}, counts the right pods per node`, () => {
      const merged = withInFlight(view, c.inFlight, "self");
      const got = Object.fromEntries(["n1", "n2"].map((n) => [n, (merged.podsByNode.get(n) ?? []).map((p) => p.uid)]));
      expect(got).to.deep.equal(c.want);
      expect(merged.podsByNode.has("gone")).to.equal(false);
    });
  }

  it("returns the same view object when it adds nothing (per-snapshot caches stay valid)", () => {
    expect(withInFlight(view, [entry("old", "n1")])).to.equal(view);
  });

  it("lets the limit caps count pods decided a moment ago: the cap rejects what the bare view would pass", () => {
    // allocatable 7.8 CPUs, cap 2.0 => 15.6 CPUs of limits; 14 bound pods of 1 CPU, 2 more in flight, a third asks
    const pods = Array.from({ length: 14 }, (_, i) => podView({ uid: `b${i}`, nodeName: "n1", limits: amounts(1, 1) }));
    const base = clusterViewOf(nodes, pods);
    const asking = podView({ uid: "ask", limits: amounts(1, 1) });
    const inFlight = [entry("f1", "n1"), entry("f2", "n1")].map((e) => ({ pod: { ...e.pod, limits: amounts(1, 1) } }));
    const policy = DEFAULT_POLICY.limits;
    expect(limitOvercommitReasons(nodes[0]!, base.podsByNode.get("n1") ?? [], asking, policy)).to.deep.equal([]);
    const merged = withInFlight(base, inFlight, "ask");
    expect(limitOvercommitReasons(nodes[0]!, merged.podsByNode.get("n1") ?? [], asking, policy)).to.have.length.greaterThan(0);
  });
});
