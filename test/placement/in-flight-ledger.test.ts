import { expect } from "chai";
import { IN_FLIGHT_TTL_MS, InFlightLedger, withInFlight } from "../../src/placement/in-flight-ledger.js";
import { limitOvercommitReasons } from "../../src/placement/limit-overcommit.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";

const T = 1_000_000;
const nodes = [nodeView({ name: "n1" }), nodeView({ name: "n2" })];

describe("InFlightLedger", () => {
  it("holds a pod hvx answered for, on the node it scored best, bound at the answer's time", () => {
    const ledger = new InFlightLedger();
    ledger.record(podView({ uid: "a" }), "n1", T);
    expect(ledger.current(T + 1000).map((e) => [e.pod.uid, e.pod.nodeName, e.pod.boundAtMs])).to.deep.equal([["a", "n1", T]]);
  });

  it("drops a pod once the informer saw it, and any entry after the TTL", () => {
    const ledger = new InFlightLedger();
    ledger.record(podView({ uid: "a" }), "n1", T);
    ledger.record(podView({ uid: "b" }), "n2", T + 10_000);
    ledger.seen("a");
    expect(ledger.current(T + 10_000).map((e) => e.pod.uid)).to.deep.equal(["b"]);
    expect(ledger.current(T + 10_000 + IN_FLIGHT_TTL_MS)).to.deep.equal([]);
  });

  it("keeps only the latest answer for a pod asked about twice", () => {
    const ledger = new InFlightLedger();
    ledger.record(podView({ uid: "a" }), "n1", T);
    ledger.record(podView({ uid: "a" }), "n2", T + 5);
    expect(ledger.current(T + 5).map((e) => e.pod.nodeName)).to.deep.equal(["n2"]);
  });
});

describe("InFlightLedger.viewWith", () => {
  const view = clusterViewOf(nodes, [podView({ uid: "old", nodeName: "n1" })]);
  const uidsOn = (v: ReturnType<typeof clusterViewOf>, node: string) => (v.podsByNode.get(node) ?? []).map((p) => p.uid);

  it("answers one merged object for every new pod between two changes, a new one after a change", () => {
    const ledger = new InFlightLedger();
    ledger.record(podView({ uid: "a" }), "n2", T);
    const first = ledger.viewWith(view, T + 1, "x");
    expect(uidsOn(first, "n2")).to.deep.equal(["a"]);
    expect(ledger.viewWith(view, T + 2, "y")).to.equal(first);
    ledger.record(podView({ uid: "b" }), "n2", T + 3);
    const second = ledger.viewWith(view, T + 4, "y");
    expect(second).to.not.equal(first);
    expect(uidsOn(second, "n2")).to.deep.equal(["a", "b"]);
    const newer = clusterViewOf(nodes, []);
    expect(uidsOn(ledger.viewWith(newer, T + 5, "y"), "n1")).to.deep.equal([]);
  });

  it("given the pod being scheduled in flight itself (a retry), leaves it out of its own view", () => {
    const ledger = new InFlightLedger();
    ledger.record(podView({ uid: "a" }), "n2", T);
    ledger.record(podView({ uid: "b" }), "n2", T);
    expect(uidsOn(ledger.viewWith(view, T + 1, "a"), "n2")).to.deep.equal(["b"]);
    expect(uidsOn(ledger.viewWith(view, T + 1, "x"), "n2")).to.deep.equal(["a", "b"]);
  });

  it("keeps a node's merged list object while its in-flight pods stay the same, and merges what a fresh merge does", () => {
    const ledger = new InFlightLedger();
    const steps: Array<{ change: () => void; kept: string[]; renewed: string[] }> = [
      { change: () => ledger.record(podView({ uid: "c" }), "n2", T + 1), kept: ["n1"], renewed: ["n2"] },
      { change: () => ledger.record(podView({ uid: "d" }), "n1", T + 2), kept: ["n2"], renewed: ["n1"] },
      { change: () => ledger.seen("a"), kept: ["n2"], renewed: ["n1"] },
      // "old" is on n1 already: the merge adds nothing there.
      { change: () => ledger.record(podView({ uid: "old" }), "n1", T + 3), kept: ["n2"], renewed: ["n1"] },
    ];
    ledger.record(podView({ uid: "a" }), "n1", T);
    ledger.record(podView({ uid: "b" }), "n2", T);
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

  it("drops expired entries: after the TTL the bare view comes back", () => {
    const ledger = new InFlightLedger();
    ledger.record(podView({ uid: "a" }), "n2", T);
    expect(ledger.viewWith(view, T + IN_FLIGHT_TTL_MS, "x")).to.equal(view);
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
