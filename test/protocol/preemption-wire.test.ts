import { expect } from "chai";
import { readFileSync } from "node:fs";
import { ExtenderArgsError } from "../../src/protocol/parse-extender-args.js";
import { parsePreemptionArgs } from "../../src/protocol/parse-preemption-args.js";
import { allCandidatesWire, toPreemptionResultWire } from "../../src/protocol/to-preemption-wire.js";

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8"));
/** Bodies composed from kube-scheduler's Go types (extender/v1) and its encoder. */
const fixture = (name: string) => read(`test/fixtures/wire/${name}`);
const example = (name: string) => read(`examples/${name}`);

describe("parsePreemptionArgs", () => {
  it("given kube-scheduler's nodeCacheCapable request, reads the pod and each node's victims by UID", () => {
    const parsed = parsePreemptionArgs(fixture("preempt-args-nodenames.json"));
    expect(parsed.mode).to.equal("metaVictims");
    expect(parsed.pod).to.include({ namespace: "payments", name: "payments-api-7d9f6c8b5c-x2k9m" });
    expect(parsed.candidates).to.deep.equal([
      { node: "vf-test-np1-h5mtj-9cf8fdcf6xcfln5-k6mdx", victimUids: ["7c0d3e9a-1b2f-4a6e-8d5c-0e9f2a1b3c4d"], numPDBViolations: 0 },
    ]);
    expect(parsed.asExtenderArgs.args.NodeNames).to.deep.equal(["vf-test-np1-h5mtj-9cf8fdcf6xcfln5-k6mdx"]);
    expect(parsed.asExtenderArgs.mode).to.equal("nodeNames");
  });

  it("reads examples/preempt-metavictims.json and examples/preempt-victims.json to the same candidates", () => {
    const meta = parsePreemptionArgs(example("preempt-metavictims.json"));
    const full = parsePreemptionArgs(example("preempt-victims.json"));
    expect(meta.mode).to.equal("metaVictims");
    expect(full.mode).to.equal("victims");
    expect(full.candidates).to.deep.equal(meta.candidates);
    expect(meta.candidates.map((c) => [c.node, c.victimUids.length, c.numPDBViolations])).to.deep.equal([
      ["k8s-worker-01", 1, 0],
      ["k8s-worker-07", 2, 0],
      ["k8s-worker-09", 1, 1],
    ]);
    expect(meta.pod.priority).to.equal(1000000);
  });

  it("given the keys in another case (as Go's decoder accepts them), reads the same request", () => {
    const body = {
      pod: { metadata: { name: "p" } },
      nodeNameToMetaVictims: { n1: { pods: [{ uid: "u1" }], numPDBViolations: 2 } },
      nodenametovictims: null,
    };
    expect(parsePreemptionArgs(body).candidates).to.deep.equal([{ node: "n1", victimUids: ["u1"], numPDBViolations: 2 }]);
    const full = { POD: {}, NODENAMETOVICTIMS: { n1: { PODS: [{ METADATA: { UID: "u1" } }] } } };
    expect(parsePreemptionArgs(full).candidates).to.deep.equal([{ node: "n1", victimUids: ["u1"], numPDBViolations: 0 }]);
  });

  it("given a node with null victims or null Pods (a nil pointer or slice in Go), reads a node without victims", () => {
    const parsed = parsePreemptionArgs({ Pod: {}, NodeNameToMetaVictims: { a: null, b: { Pods: null, NumPDBViolations: null } } });
    expect(parsed.candidates).to.deep.equal([
      { node: "a", victimUids: [], numPDBViolations: 0 },
      { node: "b", victimUids: [], numPDBViolations: 0 },
    ]);
  });

  it("given an empty map, reads no candidates", () => {
    expect(parsePreemptionArgs({ Pod: {}, NodeNameToVictims: {}, NodeNameToMetaVictims: null }).candidates).to.deep.equal([]);
  });

  it("given both maps, reads NodeNameToMetaVictims (kube-scheduler sends one)", () => {
    const parsed = parsePreemptionArgs({ Pod: {}, NodeNameToVictims: { a: { Pods: [] } }, NodeNameToMetaVictims: { b: { Pods: [] } } });
    expect(parsed.candidates.map((c) => c.node)).to.deep.equal(["b"]);
  });

  const bad: Array<{ name: string; body: unknown; message: RegExp }> = [
    { name: "an array body", body: [], message: /JSON object/ },
    { name: "a missing Pod", body: { NodeNameToMetaVictims: {} }, message: /`Pod`/ },
    { name: "a null Pod", body: { Pod: null, NodeNameToMetaVictims: {} }, message: /`Pod`/ },
    { name: "neither map", body: { Pod: {}, NodeNameToVictims: null, NodeNameToMetaVictims: null }, message: /neither/ },
    { name: "the map as an array", body: { Pod: {}, NodeNameToMetaVictims: [] }, message: /NodeNameToMetaVictims/ },
    { name: "victims as a string", body: { Pod: {}, NodeNameToMetaVictims: { a: "x" } }, message: /\["a"\]/ },
    { name: "Pods as an object", body: { Pod: {}, NodeNameToMetaVictims: { a: { Pods: {} } } }, message: /Pods must be an array/ },
    { name: "a MetaPod without UID", body: { Pod: {}, NodeNameToMetaVictims: { a: { Pods: [{}] } } }, message: /Pods\[0\]\.UID/ },
    { name: "a null MetaPod", body: { Pod: {}, NodeNameToMetaVictims: { a: { Pods: [null] } } }, message: /Pods\[0\] must be a MetaPod/ },
    { name: "an empty UID", body: { Pod: {}, NodeNameToMetaVictims: { a: { Pods: [{ UID: "" }] } } }, message: /UID/ },
    { name: "a numeric UID", body: { Pod: {}, NodeNameToMetaVictims: { a: { Pods: [{ UID: 5 }] } } }, message: /UID/ },
    {
      name: "a victim pod without metadata",
      body: { Pod: {}, NodeNameToVictims: { a: { Pods: [{ spec: {} }] } } },
      message: /Pods\[0\]\.metadata/,
    },
    {
      name: "a victim pod without uid",
      body: { Pod: {}, NodeNameToVictims: { a: { Pods: [{ metadata: { name: "v" } }] } } },
      message: /metadata\.uid/,
    },
    {
      name: "a fractional NumPDBViolations",
      body: { Pod: {}, NodeNameToMetaVictims: { a: { Pods: [], NumPDBViolations: 1.5 } } },
      message: /NumPDBViolations/,
    },
    {
      name: "a string NumPDBViolations",
      body: { Pod: {}, NodeNameToMetaVictims: { a: { Pods: [], NumPDBViolations: "1" } } },
      message: /NumPDBViolations/,
    },
    {
      name: "annotations as an array",
      body: { Pod: { metadata: { annotations: [] } }, NodeNameToMetaVictims: {} },
      message: /annotations/,
    },
  ];
  for (const c of bad) {
    it(`given ${c.name}, throws ExtenderArgsError with a clear message`, () => {
      expect(() => parsePreemptionArgs(c.body)).to.throw(ExtenderArgsError, c.message);
    });
  }
});

describe("toPreemptionResultWire", () => {
  it("given every candidate kept, replies byte for byte what kube-scheduler's own encoder writes for them", () => {
    const parsed = parsePreemptionArgs(fixture("preempt-args-nodenames.json"));
    expect(JSON.stringify(allCandidatesWire(parsed))).to.equal(JSON.stringify(fixture("preempt-result.json")));
  });

  it("given full pods (nodeCacheCapable false), still replies MetaVictims with the victims' UIDs, unchanged and in order", () => {
    const parsed = parsePreemptionArgs(example("preempt-victims.json"));
    const wire = toPreemptionResultWire(parsed, ["k8s-worker-07", "k8s-worker-09"]);
    expect(wire).to.deep.equal(example("preempt-result.json"));
    expect(Object.keys(wire)).to.deep.equal(["NodeNameToMetaVictims"]);
    expect(Object.keys(wire.NodeNameToMetaVictims["k8s-worker-07"]!)).to.deep.equal(["Pods", "NumPDBViolations"]);
  });

  it("never replies a node that was not sent", () => {
    const parsed = parsePreemptionArgs({ Pod: {}, NodeNameToMetaVictims: { a: { Pods: [{ UID: "u" }] } } });
    expect(toPreemptionResultWire(parsed, ["a", "zzz"])).to.deep.equal({
      NodeNameToMetaVictims: { a: { Pods: [{ UID: "u" }], NumPDBViolations: 0 } },
    });
    expect(toPreemptionResultWire(parsed, [])).to.deep.equal({ NodeNameToMetaVictims: {} });
  });

  it("given a node named __proto__, keeps it an ordinary key of the reply", () => {
    const parsed = parsePreemptionArgs(JSON.parse('{"Pod":{},"NodeNameToMetaVictims":{"__proto__":{"Pods":[{"UID":"u"}]}}}'));
    const text = JSON.stringify(allCandidatesWire(parsed));
    expect(text).to.equal('{"NodeNameToMetaVictims":{"__proto__":{"Pods":[{"UID":"u"}],"NumPDBViolations":0}}}');
  });
});
