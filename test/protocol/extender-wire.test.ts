import { expect } from "chai";
import { readFileSync } from "node:fs";
import { ExtenderArgsError, parseExtenderArgs } from "../../src/protocol/parse-extender-args.js";
import {
  filterErrorWire,
  filterResultJson,
  prioritizeJson,
  toFilterResultWire,
  toPrioritizeWire,
} from "../../src/protocol/to-extender-wire.js";
import { CandidateNames } from "../../src/protocol/candidate-names.js";
import type { NodeDecision } from "../../src/placement/decide-node.js";
import type { Reason } from "../../src/placement/reason.js";
import { formatReasons } from "../../src/protocol/format-reason.js";
import { realisticNode } from "../fixtures/wire-node.js";
import { nodeItemTexts } from "../../src/protocol/node-item-texts.js";

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../test/fixtures/wire/${name}`, import.meta.url), "utf8"));

describe("parseExtenderArgs", () => {
  it("given kube-scheduler's NodeNames request, reads the pod and names in order", () => {
    const parsed = parseExtenderArgs(fixture("filter-args-nodenames.json"));
    expect(parsed.mode).to.equal("nodeNames");
    expect(parsed.nodes.map((n) => n.name)).to.deep.equal(["vf-test-np1-h5mtj-9cf8fdcf6xcfln5-k6mdx", "vf-test-hcpdj-8tctj"]);
    expect(parsed.pod).to.include({ namespace: "payments", name: "payments-api-7d9f6c8b5c-x2k9m" });
    expect(parsed.pod.ownerKinds).to.deep.equal(["ReplicaSet"]);
  });

  it("given full Node objects, reads providerID and systemUUID", () => {
    const node = realisticNode("w1", "42267e63-e4e0-c681-b5dd-f69dfa981039");
    const parsed = parseExtenderArgs({ Pod: { metadata: { name: "p" } }, Nodes: { metadata: {}, items: [node] }, NodeNames: null });
    expect(parsed.mode).to.equal("nodes");
    expect(parsed.nodes[0]).to.deep.equal({
      name: "w1",
      providerID: "vsphere://42267e63-e4e0-c681-b5dd-f69dfa981039",
      systemUUID: "42267E63-E4E0-C681-B5DD-F69DFA981039",
    });
  });

  const bad: Array<{ name: string; body: unknown; message: RegExp }> = [
    { name: "an array body", body: [], message: /JSON object/ },
    { name: "a missing Pod", body: { NodeNames: ["a"] }, message: /`Pod`/ },
    { name: "Pod as a string", body: { Pod: "x", NodeNames: ["a"] }, message: /`Pod`/ },
    { name: "neither Nodes nor NodeNames", body: { Pod: {}, Nodes: null, NodeNames: null }, message: /neither/ },
    { name: "NodeNames with a number", body: { Pod: {}, NodeNames: ["a", 1] }, message: /NodeNames/ },
    { name: "Nodes without items", body: { Pod: {}, Nodes: {} }, message: /items/ },
    { name: "a Node without a name", body: { Pod: {}, Nodes: { items: [{ metadata: {} }] } }, message: /items\[0\]\.metadata\.name/ },
    { name: "annotations as an array", body: { Pod: { metadata: { annotations: [] } }, NodeNames: [] }, message: /annotations/ },
  ];
  for (const c of bad) {
    it(`given ${c.name}, throws ExtenderArgsError with a clear message`, () => {
      expect(() => parseExtenderArgs(c.body)).to.throw(ExtenderArgsError, c.message);
    });
  }
});

describe("toFilterResultWire", () => {
  const reason = { code: "host_maintenance" as const, host: { id: "host-1", name: "esx-1" } };

  it("given NodeNames mode, replies with exactly the Go field names and only names that were sent", () => {
    const req = parseExtenderArgs({ Pod: {}, Nodes: null, NodeNames: ["a", "b"] });
    const wire = toFilterResultWire(req, { passed: ["a"], failed: new Map(), unresolvable: new Map([["b", [reason]]]), decisions: [] });
    expect(Object.keys(wire)).to.deep.equal(["Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error"]);
    expect(wire).to.deep.equal({
      Nodes: null,
      NodeNames: ["a"],
      FailedNodes: {},
      FailedAndUnresolvableNodes: { b: "node(s) on ESXi hosts in maintenance" },
      Error: "",
    });
  });

  it("given Nodes mode, echoes the passing Node objects unchanged as a NodeList", () => {
    const a = realisticNode("a", "42267e63-e4e0-c681-b5dd-f69dfa981031");
    const b = realisticNode("b", "42267e63-e4e0-c681-b5dd-f69dfa981032");
    const req = parseExtenderArgs({ Pod: {}, Nodes: { metadata: { resourceVersion: "7" }, items: [a, b] }, NodeNames: null });
    const wire = toFilterResultWire(req, { passed: ["b"], failed: new Map([["a", [reason]]]), unresolvable: new Map(), decisions: [] });
    expect(wire.NodeNames).to.equal(null);
    expect(wire.Nodes).to.deep.equal({ metadata: { resourceVersion: "7" }, items: [b] });
    expect(JSON.stringify(wire.Nodes!.items[0])).to.equal(JSON.stringify(b));
    expect(wire.FailedNodes).to.have.keys("a");
  });
});

describe("filterErrorWire", () => {
  it("given a message with %, returns an Error kube-scheduler's fmt.Errorf(result.Error) prints as is", () => {
    expect(filterErrorWire("hvx: 100% of 5% failed").Error).to.equal("hvx: 100pct of 5pct failed");
  });
});

describe("filterResultJson", () => {
  type Reasons = ReadonlyArray<Reason>;
  const hot: Reasons = [{ code: "host_maintenance", host: { id: "host-1", name: 'esx-"1"\u2028' } }];
  const cold: Reasons = [{ code: "node_unmapped", node: "weird \\ name" }];
  const valve = { action: "passed-coolest" as const, passed: ["a"], tier: 1.2, hotter: [] };
  // Each node sent, in order: passed, or rejected (preemption could fix it: failed) with its reasons.
  type Sent = readonly [string, "pass"] | readonly [string, "failed" | "unresolvable", Reasons];
  const cases: ReadonlyArray<{ name: string; sent: readonly Sent[]; valve?: typeof valve }> = [
    {
      name: "some pass, some fail, names to escape",
      sent: [
        ["a", "pass"],
        ['b"q', "failed", hot],
        ["c", "unresolvable", cold],
      ],
    },
    {
      name: "every node failed",
      sent: [
        ["a", "failed", hot],
        ["b", "failed", cold],
      ],
    },
    {
      name: "index-like names (an object puts them first)",
      sent: [
        ["z", "failed", hot],
        ["10", "failed", hot],
        ["2", "failed", cold],
      ],
    },
    {
      name: "a name an object would not keep as a key",
      sent: [
        ["__proto__", "failed", hot],
        ["a", "pass"],
      ],
    },
    {
      name: "a name sent twice (an object keeps its first place and last reasons)",
      sent: [
        ["a", "failed", hot],
        ["b", "failed", cold],
        ["a", "failed", cold],
      ],
    },
    {
      name: "the valve opened",
      sent: [
        ["a", "pass"],
        ["b", "unresolvable", hot],
      ],
      valve,
    },
  ];
  const outcomeOf = (c: (typeof cases)[number]) => {
    const decisions = c.sent.map(([node, verdict, reasons]) => ({
      ...decisionOf(node),
      verdict: verdict === "pass" ? ("pass" as const) : ("reject" as const),
      unresolvable: verdict === "unresolvable",
      reasons: reasons ?? [],
    }));
    return {
      passed: decisions.filter((d) => d.verdict === "pass").map((d) => d.node),
      failed: new Map(decisions.filter((d) => d.verdict === "reject" && !d.unresolvable).map((d) => [d.node, d.reasons])),
      unresolvable: new Map(decisions.filter((d) => d.unresolvable).map((d) => [d.node, d.reasons])),
      decisions,
      ...(c.valve ? { valve: c.valve } : {}),
    };
  };
  const json = (r: Reasons) => JSON.stringify(formatReasons(r));
  for (const c of cases) {
    it(`given ${c.name}, is JSON.stringify of toFilterResultWire byte for byte`, () => {
      const req = parseExtenderArgs({ Pod: {}, Nodes: null, NodeNames: c.sent.map(([n]) => n) });
      const names = new CandidateNames().factsOf(req.nodes);
      const outcome = outcomeOf(c);
      expect(filterResultJson(req, outcome, formatReasons, json, names)).to.equal(
        JSON.stringify(toFilterResultWire(req, outcome, formatReasons)),
      );
    });

    it(`given ${c.name} in Nodes mode, with the nodes' texts as sent, is JSON.stringify of toFilterResultWire byte for byte`, () => {
      const list = {
        apiVersion: "v1",
        kind: "NodeList",
        metadata: { resourceVersion: "7" },
        items: c.sent.map(([n], i) => realisticNode(n, `u-${i}`, i)),
      };
      const body = JSON.stringify({ Pod: {}, Nodes: list, NodeNames: null });
      const req = parseExtenderArgs(JSON.parse(body));
      const names = new CandidateNames().factsOf(req.nodes);
      const outcome = outcomeOf(c);
      expect(filterResultJson(req, outcome, formatReasons, json, names, () => nodeItemTexts(body))).to.equal(
        JSON.stringify(toFilterResultWire(req, outcome, formatReasons)),
      );
    });
  }

  it("in Nodes mode, answers a passing node with the text it was sent as, and the rest as JSON.stringify would", () => {
    const body = '{"Pod":{},"Nodes":{"items":[ {"metadata":{"name":"a"}, "big":12345678901234567891} ,{"metadata":{"name":"b"}}]}}';
    const req = parseExtenderArgs(JSON.parse(body));
    const outcome = outcomeOf({
      name: "",
      sent: [
        ["a", "pass"],
        ["b", "unresolvable", hot],
      ],
    });
    const reply = filterResultJson(req, outcome, formatReasons, json, new CandidateNames().factsOf(req.nodes), () => nodeItemTexts(body));
    expect(reply).to.equal(
      '{"Nodes":{"metadata":{},"items":[{"metadata":{"name":"a"}, "big":12345678901234567891}]},"NodeNames":null,' +
        `"FailedNodes":{},"FailedAndUnresolvableNodes":{"b":${json(hot)}},"Error":""}`,
    );
  });

  it("in Nodes mode, without the nodes' texts or with texts that do not match the nodes, serializes the parsed nodes", () => {
    const body = JSON.stringify({ Pod: {}, Nodes: { items: [realisticNode("a", "u-1"), realisticNode("b", "u-2")] }, NodeNames: null });
    const req = parseExtenderArgs(JSON.parse(body));
    const outcome = outcomeOf({
      name: "",
      sent: [
        ["a", "pass"],
        ["b", "pass"],
      ],
    });
    const names = new CandidateNames().factsOf(req.nodes);
    const expected = JSON.stringify(toFilterResultWire(req, outcome));
    expect(filterResultJson(req, outcome, formatReasons, json, names, () => undefined)).to.equal(expected);
    expect(filterResultJson(req, outcome, formatReasons, json, names, () => ['{"metadata":{"name":"a"}}'])).to.equal(expected);
  });
});

describe("prioritizeJson", () => {
  for (const names of [
    ["a", "b.c-1"],
    ['q"uote', "back\\slash", "tab\t", "ü", "\ud800"],
  ]) {
    it(`given names ${JSON.stringify(names)}, is JSON.stringify of toPrioritizeWire byte for byte`, () => {
      const scores = names.map((node, i) => ({ node, score: [7.6, -2, 12, 0, 5][i]! }));
      const facts = new CandidateNames().factsOf(names.map((name) => ({ name })));
      expect(prioritizeJson(scores, facts)).to.equal(JSON.stringify(toPrioritizeWire(scores)));
    });
  }
});

describe("toPrioritizeWire", () => {
  it("given fractional or out-of-range scores, replies integers 0..10 with keys Host and Score", () => {
    const wire = toPrioritizeWire([
      { node: "a", score: 7.6 },
      { node: "b", score: -2 },
      { node: "c", score: 12 },
    ]);
    expect(wire).to.deep.equal([
      { Host: "a", Score: 8 },
      { Host: "b", Score: 0 },
      { Host: "c", Score: 10 },
    ]);
    expect(JSON.stringify(wire)).to.equal('[{"Host":"a","Score":8},{"Host":"b","Score":0},{"Host":"c","Score":10}]');
  });
});

function decisionOf(node: string): NodeDecision {
  return {
    node,
    verdict: "pass",
    unresolvable: false,
    reasons: [],
    noOpinion: false,
    vm: undefined,
    host: undefined,
    assessment: undefined,
    exemptBy: undefined,
    score: 0,
  };
}
