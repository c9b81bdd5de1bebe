import { expect } from "chai";
import { Registry } from "prom-client";
import type { MetricsSource } from "../../src/model/metrics-source.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { createExtenderHandlers, type ExtenderDeps } from "../../src/server/extender-handlers.js";
import { UNMAPPED_LINES_PER_REQUEST, UNMAPPED_LOG_INTERVAL_MS } from "../../src/server/unmapped-node-log.js";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import { createLogger } from "../../src/observability/logger.js";
import { ShadowMetrics } from "../../src/observability/shadow-metrics.js";
import { ShadowRecorder } from "../../src/server/shadow-recorder.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

/** A source that fails the way a bug would: hvx must answer "no opinion", never an error. */
const brokenSource: MetricsSource = {
  latest() {
    throw new TypeError("cannot read properties of undefined");
  },
};

describe("createExtenderHandlers", () => {
  const registry = new Registry();
  const handlers = createExtenderHandlers({
    source: brokenSource,
    policy: DEFAULT_POLICY,
    metrics: new ExtenderMetrics(registry),
    log: silentLogger(),
  });
  const body = JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["a", "b"] });

  it("given an internal error in filter, fails open: 200, every node passes, no Error", () => {
    const reply = handlers.filter(body);
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body)).to.deep.equal({
      Nodes: null,
      NodeNames: ["a", "b"],
      FailedNodes: {},
      FailedAndUnresolvableNodes: {},
      Error: "",
    });
  });

  it("given an internal error in prioritize, answers the neutral unknownScore for every node", () => {
    const reply = handlers.prioritize(body);
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body)).to.deep.equal([
      { Host: "a", Score: 5 },
      { Host: "b", Score: 5 },
    ]);
  });

  it("counts internal errors in hvx_extender_requests_total", async () => {
    const text = await registry.metrics();
    expect(text).to.match(/hvx_extender_requests_total\{verb="filter",outcome="internal_error"\} 1/);
    expect(text).to.match(/hvx_extender_requests_total\{verb="prioritize",outcome="internal_error"\} 1/);
  });
});

// Two hot hosts (cpu ready 14 % and 12 % >= 10 %, unless told) and one cool one; node names are VM names.
const hotInventory = (coolReady = 1, aReady = 14) =>
  inventoryOf(
    [
      hostView({ id: "h-a", name: "esx-a", metrics: { cpuReadyPercent: aReady } }),
      hostView({ id: "h-b", name: "esx-b", metrics: { cpuReadyPercent: 12 } }),
      hostView({ id: "h-c", name: "esx-c", metrics: { cpuReadyPercent: coolReady } }),
    ],
    [
      vmView({ id: "vm-a", name: "n-a", hostId: "h-a", biosUuid: undefined }),
      vmView({ id: "vm-b", name: "n-b", hostId: "h-b", biosUuid: undefined }),
      vmView({ id: "vm-c", name: "n-c", hostId: "h-c", biosUuid: undefined }),
    ],
  );
const namesBody = (names: string[]) =>
  JSON.stringify({ Pod: { metadata: { name: "api-1", namespace: "payments" } }, Nodes: null, NodeNames: names });

function rig(over: Partial<ExtenderDeps> = {}, coolReady = 1) {
  const registry = new Registry();
  const lines: Array<{ msg: string } & Record<string, unknown>> = [];
  const log = createLogger("debug", { write: (line: string) => void lines.push(JSON.parse(line)) });
  const now = { ms: NOW_MS };
  const shadowMetrics = new ShadowMetrics(registry);
  const shadow = new ShadowRecorder({ metrics: shadowMetrics, log, clock: () => now.ms });
  const handlers = createExtenderHandlers({
    source: new FakeMetricsSource(hotInventory(coolReady)),
    policy: DEFAULT_POLICY,
    metrics: new ExtenderMetrics(registry),
    log,
    clock: () => now.ms,
    shadow,
    shadowMetrics,
    ...over,
  });
  return { handlers, registry, lines, shadow, now };
}

describe("createExtenderHandlers, mode: observe", () => {
  it("given hot hosts, /filter passes every node with no failures, as without hvx", () => {
    const { handlers } = rig({ mode: "observe" });
    expect(JSON.parse(handlers.filter(namesBody(["n-a", "n-b", "n-c"])).body)).to.deep.equal({
      Nodes: null,
      NodeNames: ["n-a", "n-b", "n-c"],
      FailedNodes: {},
      FailedAndUnresolvableNodes: {},
      Error: "",
    });
  });

  it("given onFiltered, tells it nothing (only enforce-mode outcomes are remembered for requeue)", () => {
    const told: string[][] = [];
    for (const mode of ["observe", "enforce"] as const) {
      const { handlers } = rig({ mode, onFiltered: (_req, outcome) => void told.push([mode, ...outcome.passed]) });
      handlers.filter(namesBody(["n-a", "n-c"]));
    }
    expect(told).to.deep.equal([["enforce", "n-c"]]);
  });

  it("given hot hosts, /prioritize answers the neutral unknownScore for every node", () => {
    const { handlers } = rig({ mode: "observe" });
    expect(JSON.parse(handlers.prioritize(namesBody(["n-a", "n-c"])).body)).to.deep.equal([
      { Host: "n-a", Score: 5 },
      { Host: "n-c", Score: 5 },
    ]);
  });

  it("counts what hvx would have done in hvx_shadow_decisions_total, and not in the enforce verdict counter", async () => {
    const { handlers, registry } = rig({ mode: "observe" });
    handlers.filter(namesBody(["n-a", "n-b", "n-c"]));
    handlers.prioritize(namesBody(["n-a", "n-c"]));
    const text = await registry.metrics();
    expect(text).to.include('hvx_shadow_decisions_total{verb="filter",verdict="reject",reason="host_metric"} 2');
    expect(text).to.include('hvx_shadow_decisions_total{verb="filter",verdict="pass",reason="none"} 1');
    // n-a is hot (score 0), n-c is cool (score 10 > neutral 5).
    expect(text).to.include('hvx_shadow_decisions_total{verb="prioritize",verdict="below_neutral",reason="host_metric"} 1');
    expect(text).to.include('hvx_shadow_decisions_total{verb="prioritize",verdict="above_neutral",reason="none"} 1');
    expect(text).not.to.match(/hvx_filter_node_verdicts_total\{verdict="reject"/);
  });

  it("keeps the would-be rejections for /debug/shadow and logs them at most once per window", () => {
    const { handlers, shadow, lines, now } = rig({ mode: "observe" });
    for (let i = 0; i < 3; i++) handlers.filter(namesBody(["n-a", "n-b", "n-c"]));
    const logged = () => lines.filter((l) => l.msg.startsWith("observe: hvx would have rejected"));
    expect(logged()).to.have.length(1);
    now.ms += 10_000;
    handlers.filter(namesBody(["n-a", "n-c"]));
    expect(logged()).to.have.length(2);
    expect(logged()[1]).to.include({ similarSuppressed: 2, pod: "payments/api-1", wouldReject: 1, of: 2 });
    const recent = shadow.recent();
    expect(recent).to.have.length(4);
    expect(recent[0]).to.deep.include({ verb: "filter", pod: "payments/api-1", verdict: "reject" });
    expect(recent[0]!.reasons).to.have.length(1);
    expect(recent[0]!.reasons[0]).to.match(/^n-a: ESXi host esx-a \(h-a\): cpu ready 14% >= 10%/);
  });

  it("given mode observe without a recorder, refuses to build", () => {
    expect(() =>
      createExtenderHandlers({
        source: brokenSource,
        policy: DEFAULT_POLICY,
        metrics: new ExtenderMetrics(new Registry()),
        log: silentLogger(),
        mode: "observe",
      }),
    ).to.throw(/ShadowRecorder/);
  });
});

describe("createExtenderHandlers, filter.whenAllRejected", () => {
  // Every host hot: esx-a 14 % (tier 1.4), esx-b 12 % (1.2), esx-c 11 % (1.1).
  it("given pass-coolest and every host hot, passes the coolest tier, warns in the others' reasons, logs and counts", async () => {
    const { handlers, registry, lines } = rig({ whenAllRejected: "pass-coolest" }, 11);
    const wire = JSON.parse(handlers.filter(namesBody(["n-a", "n-b", "n-c"])).body);
    expect(wire.NodeNames).to.deep.equal(["n-c"]);
    expect(wire.FailedNodes).to.deep.equal({});
    expect(Object.keys(wire.FailedAndUnresolvableNodes)).to.deep.equal(["n-a", "n-b"]);
    for (const r of Object.values(wire.FailedAndUnresolvableNodes)) expect(r).to.match(/coolest tier passed anyway \(n-c;/);
    expect(await registry.metrics()).to.include('hvx_filter_all_rejected_total{action="passed_coolest"} 1');
    expect(lines.filter((l) => l.msg.startsWith("host heat rejected every candidate node: passing the coolest tier"))).to.have.length(1);
  });

  it("given reject and every host hot, rejects every node (the pod stays Pending) and counts it", async () => {
    const { handlers, registry } = rig({ whenAllRejected: "reject" }, 11);
    const wire = JSON.parse(handlers.filter(namesBody(["n-a", "n-b", "n-c"])).body);
    expect(wire.NodeNames).to.deep.equal([]);
    expect(Object.keys(wire.FailedAndUnresolvableNodes)).to.deep.equal(["n-a", "n-b", "n-c"]);
    for (const r of Object.values(wire.FailedAndUnresolvableNodes)) expect(r).not.to.match(/coolest/);
    expect(await registry.metrics()).to.include('hvx_filter_all_rejected_total{action="rejected"} 1');
  });

  it("given a cool host among the candidates, the valve stays shut", async () => {
    const { handlers, registry } = rig({ whenAllRejected: "pass-coolest" });
    expect(JSON.parse(handlers.filter(namesBody(["n-a", "n-b", "n-c"])).body).NodeNames).to.deep.equal(["n-c"]);
    expect(await registry.metrics()).not.to.match(/hvx_filter_all_rejected_total\{/);
  });
});

describe("createExtenderHandlers, unmapped nodes", () => {
  it("given a node no rule maps, logs it once per window with what it carried, and still passes it", () => {
    const { handlers, lines, now } = rig();
    const unmapped = () => lines.filter((l) => l.msg.startsWith("node not mapped to any VM"));
    expect(JSON.parse(handlers.filter(namesBody(["ghost", "n-c"])).body).NodeNames).to.deep.equal(["ghost", "n-c"]);
    handlers.prioritize(namesBody(["ghost", "n-c"]));
    expect(unmapped()).to.have.length(1);
    expect(unmapped()[0]).to.deep.include({
      node: "ghost",
      providerID: null,
      unknownScore: 5,
      rules: ["providerID", "systemUUID", "name"],
    });
    now.ms += UNMAPPED_LOG_INTERVAL_MS;
    handlers.prioritize(namesBody(["ghost"]));
    expect(unmapped()).to.have.length(2);
    expect(unmapped()[1]).to.include({ similarSuppressed: 1 });
  });

  it("given more unmapped nodes than fit one request's lines, names each once per window over the next requests, then goes quiet", () => {
    const { handlers, lines } = rig();
    const unmapped = () => lines.filter((l) => l.msg.startsWith("node not mapped to any VM")).length;
    const body = namesBody(Array.from({ length: 1500 }, (_, i) => `ghost-${i}`));
    handlers.filter(body);
    expect(unmapped()).to.be.at.most(UNMAPPED_LINES_PER_REQUEST);
    for (let i = 0; i < 100; i++) handlers.filter(body);
    const afterMany = unmapped();
    // Every ghost named once in the window (1500 / 20 = 75 requests), never twice.
    expect(afterMany).to.equal(1500);
    for (let i = 0; i < 10; i++) handlers.filter(body);
    expect(unmapped()).to.equal(afterMany);
    expect(lines.filter((l) => l.msg.startsWith("more nodes not mapped"))).to.have.length(1);
  });
});

describe("createExtenderHandlers, the same decisions again", () => {
  it("given the same request twice, answers the same bytes and counts both requests' verdicts", async () => {
    const { handlers, registry } = rig();
    const body = namesBody(["n-a", "n-b", "n-c"]);
    const first = handlers.filter(body).body;
    expect(handlers.filter(body).body).to.equal(first);
    expect(handlers.prioritize(body).body).to.equal(handlers.prioritize(body).body);
    const text = await registry.metrics();
    expect(text).to.include('hvx_filter_node_verdicts_total{verdict="reject",reason="host_metric"} 4');
    expect(text).to.include('hvx_filter_node_verdicts_total{verdict="pass",reason="none"} 2');
  });

  it("given a new poll that cools a host, answers from the new decisions, not the last reply", () => {
    const source = new FakeMetricsSource(hotInventory());
    const { handlers } = rig({ source });
    const body = namesBody(["n-a", "n-b", "n-c"]);
    expect(JSON.parse(handlers.filter(body).body).NodeNames).to.deep.equal(["n-c"]);
    const scoresBefore = JSON.parse(handlers.prioritize(body).body);
    source.set(hotInventory(1, 1));
    expect(JSON.parse(handlers.filter(body).body).NodeNames).to.deep.equal(["n-a", "n-c"]);
    expect(JSON.parse(handlers.prioritize(body).body)).not.to.deep.equal(scoresBefore);
  });

  it("given other candidates under the same snapshot, answers for them", () => {
    const { handlers } = rig();
    expect(JSON.parse(handlers.filter(namesBody(["n-a", "n-c"])).body).NodeNames).to.deep.equal(["n-c"]);
    expect(JSON.parse(handlers.filter(namesBody(["n-c", "n-b"])).body)).to.deep.include({
      NodeNames: ["n-c"],
      FailedAndUnresolvableNodes: { "n-b": JSON.parse(handlers.filter(namesBody(["n-b"])).body).FailedAndUnresolvableNodes["n-b"] },
    });
  });
});

describe("createExtenderHandlers, a pod or candidate list sent again", () => {
  const names = ["n-a", "n-b", "n-c"];
  const list = JSON.stringify(names);
  const withPod = (pod: object, rest = `"Nodes":null,"NodeNames":${list}`) => `{"Pod":${JSON.stringify(pod)},${rest}}`;
  const api = { metadata: { name: "api-1", namespace: "payments" } };

  it("answers every body as a handler that never saw the list does", () => {
    const { handlers } = rig();
    const bodies = [
      withPod(api),
      withPod(api),
      withPod(api),
      withPod({ metadata: { name: "dns", namespace: "kube-system" } }),
      withPod({ metadata: { name: "api-2", namespace: "payments", annotations: { "hvx.io/exempt": "true" } } }),
      withPod(api, ` "Nodes" : null ,\n"NodeNames" : ${list} `),
      withPod(api, `"Nodes":null,"NodeNames":${list}} trailing`),
      withPod(api, `"Nodes":null,"NodeNames":${list},"NodeNames":null`),
      withPod(api, `"Nodes":null,"NodeNames":${list},"NodeNames":["n-c"]`),
      withPod(api, `"Nodes":{"items":[{"metadata":{"name":"n-c"}}]},"NodeNames":${list}`),
      withPod({ metadata: "x" }, `"Nodes":null,"NodeNames":${list}`),
      withPod(api),
    ];
    for (const body of bodies) {
      for (const verb of ["filter", "prioritize"] as const) {
        const { status, body: reply } = handlers[verb](body);
        expect({ status, reply }, `${verb} ${body}`).to.deep.equal(
          (({ status, body: reply }) => ({ status, reply }))(rig().handlers[verb](body)),
        );
      }
    }
  });
});

describe("createExtenderHandlers, full Nodes mode", () => {
  // kube-scheduler without nodeCacheCapable sends whole v1.Node objects; one field here is an int64 a JavaScript number would round.
  const nodeText = (name: string) => `{"metadata":{"name":"${name}","generation":9007199254740993},"spec":{}}`;
  const nodesBody = (names: string[]) =>
    `{"Pod":{"metadata":{"name":"api-1","namespace":"payments"}},"Nodes":{"kind":"NodeList","items":[${names.map(nodeText).join(", ")}]},"NodeNames":null}`;

  it("answers the passing nodes as they were sent, and the rejected ones with hvx's reasons", () => {
    const { handlers } = rig();
    const reply = handlers.filter(nodesBody(["n-a", "n-b", "n-c"])).body;
    expect(reply).to.include(`"items":[${nodeText("n-c")}]`);
    const decoded = JSON.parse(reply);
    expect(decoded.Nodes.kind).to.equal("NodeList");
    expect(Object.keys(decoded.FailedAndUnresolvableNodes)).to.deep.equal(["n-a", "n-b"]);
  });

  it("in observe mode, answers every node as it was sent", () => {
    const { handlers } = rig({ mode: "observe" });
    const reply = handlers.filter(nodesBody(["n-a", "n-b"])).body;
    expect(reply).to.equal(
      `{"Nodes":{"kind":"NodeList","metadata":{},"items":[${nodeText("n-a")},${nodeText("n-b")}]},` +
        `"NodeNames":null,"FailedNodes":{},"FailedAndUnresolvableNodes":{},"Error":""}`,
    );
  });
});
