import { expect } from "chai";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import { toPodView, type PodWire } from "../../src/cluster/to-pod-view.js";
import type { MetricsSource } from "../../src/model/metrics-source.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { buildExtenderApp } from "../../src/server/extender-app.js";
import { createExtenderHandlers, type ExtenderDeps } from "../../src/server/extender-handlers.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const exampleText = (name: string) => readFileSync(new URL(`../../../examples/${name}`, import.meta.url), "utf8");
const example = (name: string) => JSON.parse(exampleText(name));

// The examples' candidates: k8s-worker-01 on a hot host, k8s-worker-07 and k8s-worker-09 on cool ones.
const uuid = (n: number) => `4226${String(n).padStart(2, "0")}63-e4e0-c681-b5dd-f69dfa981039`;
const WORKERS = { "k8s-worker-01": 1, "k8s-worker-07": 7, "k8s-worker-09": 9 } as const;
const inventory = inventoryOf(
  [
    hostView({ id: "host-11", name: "esx-01", metrics: { cpuReadyPercent: 12 } }),
    hostView({ id: "host-14", name: "esx-04" }),
    hostView({ id: "host-15", name: "esx-05" }),
  ],
  [
    vmView({ id: "vm-1", name: "k8s-worker-01", hostId: "host-11", biosUuid: uuid(1) }),
    vmView({ id: "vm-7", name: "k8s-worker-07", hostId: "host-14", biosUuid: uuid(7) }),
    vmView({ id: "vm-9", name: "k8s-worker-09", hostId: "host-15", biosUuid: uuid(9) }),
  ],
);
// The incoming pod's limits are 2.05 CPUs. k8s-worker-07: 10 + 4 (victim) + 1 (victim) + 2.05 = 17.05 / 7.8 = 2.19 > 2.0,
// 12.05 / 7.8 = 1.54 without its victims. k8s-worker-09: 4 + 4 (victim) + 2.05 = 10.05 / 7.8 = 1.29.
const V = (n: string) => `8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e${n}`;
const view = clusterViewOf(
  Object.entries(WORKERS).map(([name, n]) => nodeView({ name, providerID: `vsphere://${uuid(n)}` })),
  [
    podView({ uid: V("01"), nodeName: "k8s-worker-01", limits: amounts(4, 8) }),
    podView({ uid: "other-07", nodeName: "k8s-worker-07", limits: amounts(10, 4) }),
    podView({ uid: V("07"), nodeName: "k8s-worker-07", limits: amounts(4, 8) }),
    podView({ uid: V("17"), nodeName: "k8s-worker-07", limits: amounts(1, 2) }),
    podView({ uid: "other-09", nodeName: "k8s-worker-09", limits: amounts(4, 4) }),
    podView({ uid: V("09"), nodeName: "k8s-worker-09", limits: amounts(4, 8) }),
  ],
);
const defaults = amounts(0.1, 0.125);
const withCluster: ExtenderDeps["enrich"] = (ctx, req) => ({
  ...ctx,
  cluster: { view, pod: toPodView(req.args.Pod as PodWire, defaults, ctx.nowMs) },
});

function handlersWith(over: Partial<ExtenderDeps> = {}) {
  const registry = new Registry();
  const handlers = createExtenderHandlers({
    source: new FakeMetricsSource(inventory),
    policy: DEFAULT_POLICY,
    metrics: new ExtenderMetrics(registry),
    log: silentLogger(),
    clock: () => NOW_MS,
    enrich: withCluster,
    ...over,
  });
  return { handlers, registry };
}

describe("POST /preempt over HTTP", () => {
  let server: Server;
  let base: string;
  let registry: Registry;

  before(async () => {
    const built = handlersWith();
    registry = built.registry;
    const app = buildExtenderApp({ handlers: built.handlers, bodyLimitMB: 1 });
    server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (path: string, body: string) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });

  it("given examples/preempt-metavictims.json (nodeCacheCapable), drops the hot host's node and keeps the others with their victims unchanged", async () => {
    const res = await post("/preempt", exampleText("preempt-metavictims.json"));
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/application\/json/);
    expect(await res.json()).to.deep.equal(example("preempt-result.json"));
  });

  it("given examples/preempt-victims.json (whole pods), answers the same MetaVictims", async () => {
    const res = await post("/preempt", exampleText("preempt-victims.json"));
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal(example("preempt-result.json"));
  });

  it("keeps a node the filter put in FailedNodes when its victims make room (the path preemption exists for)", async () => {
    const args = example("preempt-metavictims.json");
    const filter = (await (
      await post("/filter", JSON.stringify({ Pod: args.Pod, Nodes: null, NodeNames: Object.keys(WORKERS) }))
    ).json()) as { FailedNodes: object; FailedAndUnresolvableNodes: object };
    expect(Object.keys(filter.FailedNodes)).to.deep.equal(["k8s-worker-07"]);
    expect(Object.keys(filter.FailedAndUnresolvableNodes)).to.deep.equal(["k8s-worker-01"]);
    const both = { ...args, NodeNameToMetaVictims: { "k8s-worker-07": args.NodeNameToMetaVictims["k8s-worker-07"] } };
    expect(await (await post("/preempt", JSON.stringify(both))).json()).to.deep.equal({
      NodeNameToMetaVictims: { "k8s-worker-07": args.NodeNameToMetaVictims["k8s-worker-07"] },
    });
    const only17 = { ...args, NodeNameToMetaVictims: { "k8s-worker-07": { Pods: [{ UID: V("17") }], NumPDBViolations: 0 } } };
    // 10 + 4 + 2.05 = 16.05 / 7.8 = 2.06: one small victim is not enough.
    expect(await (await post("/preempt", JSON.stringify(only17))).json()).to.deep.equal({ NodeNameToMetaVictims: {} });
  });

  it("given the keys in lower case (as some forks tag them, and as Go's decoder accepts), answers the same", async () => {
    const args = example("preempt-metavictims.json");
    const lower = {
      pod: args.Pod,
      nodeNameToVictims: null,
      nodeNameToMetaVictims: Object.fromEntries(
        Object.entries(args.NodeNameToMetaVictims).map(([n, v]: [string, any]) => [
          n,
          { pods: v.Pods.map((p: any) => ({ uid: p.UID })), numPDBViolations: v.NumPDBViolations },
        ]),
      ),
    };
    expect(await (await post("/preempt", JSON.stringify(lower))).json()).to.deep.equal(example("preempt-result.json"));
  });

  const bad: Array<[string, string, RegExp]> = [
    ["an empty body", "", /empty request body/],
    ["malformed JSON", "{", /malformed JSON/],
    ["a missing Pod", JSON.stringify({ NodeNameToMetaVictims: {} }), /`Pod`/],
    ["neither victims map", JSON.stringify({ Pod: {}, NodeNameToVictims: null, NodeNameToMetaVictims: null }), /neither/],
    ["a victim without UID", JSON.stringify({ Pod: {}, NodeNameToMetaVictims: { a: { Pods: [{}] } } }), /UID/],
  ];
  for (const [name, body, message] of bad) {
    it(`given ${name}, answers 400 with {"Error": "hvx: ..."}`, async () => {
      const res = await post("/preempt", body);
      expect(res.status).to.equal(400);
      const json = (await res.json()) as { Error: string };
      expect(Object.keys(json)).to.deep.equal(["Error"]);
      expect(json.Error)
        .to.match(/^hvx: /)
        .and.to.match(message);
    });
  }

  it('counts preempt requests with verb="preempt" in the extender metrics', async () => {
    const text = await registry.metrics();
    expect(text).to.match(/hvx_extender_requests_total\{verb="preempt",outcome="ok"\} 5/);
    expect(text).to.match(/hvx_extender_requests_total\{verb="preempt",outcome="bad_request"\} 5/);
    expect(text).to.match(/hvx_extender_request_duration_seconds_count\{verb="preempt"\} 10/);
  });
});

describe("preempt handler", () => {
  it("given no cluster view, applies only the host rules: the node over its limits stays, the hot host's node goes", () => {
    const { handlers } = handlersWith({ enrich: undefined });
    const args = example("preempt-metavictims.json");
    const only17 = {
      ...args,
      NodeNameToMetaVictims: { ...args.NodeNameToMetaVictims, "k8s-worker-07": { Pods: [{ UID: V("17") }], NumPDBViolations: 0 } },
    };
    const reply = handlers.preempt(JSON.stringify(only17));
    expect(reply.status).to.equal(200);
    expect(Object.keys(JSON.parse(reply.body).NodeNameToMetaVictims)).to.deep.equal(["k8s-worker-07", "k8s-worker-09"]);
  });

  it("given an internal error, fails open: 200 with every candidate and its victims unchanged, counted", async () => {
    const broken: MetricsSource = {
      latest() {
        throw new TypeError("cannot read properties of undefined");
      },
    };
    const { handlers, registry } = handlersWith({ source: broken });
    const reply = handlers.preempt(exampleText("preempt-victims.json"));
    expect(reply.status).to.equal(200);
    const all = example("preempt-metavictims.json").NodeNameToMetaVictims;
    expect(JSON.parse(reply.body)).to.deep.equal({ NodeNameToMetaVictims: all });
    expect(await registry.metrics()).to.match(/hvx_extender_requests_total\{verb="preempt",outcome="internal_error"\} 1/);
  });

  it("given a victim UID the cluster cache does not know, takes nothing away for it (hvx never assumes room it cannot see)", () => {
    const { handlers } = handlersWith();
    const args = example("preempt-metavictims.json");
    const unknown = { ...args, NodeNameToMetaVictims: { "k8s-worker-07": { Pods: [{ UID: "not-in-cache" }], NumPDBViolations: 0 } } };
    expect(JSON.parse(handlers.preempt(JSON.stringify(unknown)).body)).to.deep.equal({ NodeNameToMetaVictims: {} });
  });
});

describe("preempt in mode: observe", () => {
  it("given examples/preempt-metavictims.json, returns every candidate with its victims unchanged and counts the would-be drop", async () => {
    const { ShadowMetrics } = await import("../../src/observability/shadow-metrics.js");
    const { ShadowRecorder } = await import("../../src/server/shadow-recorder.js");
    const registry = new Registry();
    const shadowMetrics = new ShadowMetrics(registry);
    const shadow = new ShadowRecorder({ metrics: shadowMetrics, log: silentLogger(), clock: () => NOW_MS });
    const { handlers } = handlersWith({ mode: "observe", shadow, shadowMetrics });
    const args = example("preempt-metavictims.json");
    const reply = JSON.parse(handlers.preempt(exampleText("preempt-metavictims.json")).body);
    expect(reply).to.deep.equal({ NodeNameToMetaVictims: args.NodeNameToMetaVictims });
    // enforce drops k8s-worker-01 (hot host): see examples/preempt-result.json.
    expect(await registry.metrics()).to.include('hvx_shadow_decisions_total{verb="preempt",verdict="drop",reason="host_metric"} 1');
    expect(shadow.recent()[0]).to.deep.include({ verb: "preempt", verdict: "drop" });
    expect(shadow.recent()[0]!.reasons[0]).to.match(/^k8s-worker-01: /);
  });
});
