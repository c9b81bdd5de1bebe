import { expect } from "chai";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { buildDebugHosts } from "../../src/server/debug-view.js";
import { buildExtenderApp } from "../../src/server/extender-app.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { realisticNode } from "../fixtures/wire-node.js";

const HOT_UUID = "42267e63-e4e0-c681-b5dd-f69dfa981001";
const COOL_UUID = "42267e63-e4e0-c681-b5dd-f69dfa981002";

describe("extender HTTP app", () => {
  let server: Server;
  let base: string;
  let registry: Registry;
  const source = new FakeMetricsSource(
    inventoryOf(
      [hostView({ id: "host-1", name: "esx-hot", metrics: { cpuReadyPercent: 14 } }), hostView({ id: "host-2", name: "esx-cool" })],
      [
        vmView({ id: "vm-1", name: "w-hot", hostId: "host-1", biosUuid: HOT_UUID }),
        vmView({ id: "vm-2", name: "w-cool", hostId: "host-2", biosUuid: COOL_UUID }),
      ],
    ),
  );

  before(async () => {
    registry = new Registry();
    const handlers = createExtenderHandlers({ source, policy: DEFAULT_POLICY, metrics: new ExtenderMetrics(registry), log: silentLogger(), clock: () => NOW_MS });
    const app = buildExtenderApp({ handlers, registry, bodyLimitMB: 1, debugHosts: () => buildDebugHosts(source.latest(), DEFAULT_POLICY, NOW_MS) });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (path: string, body: string) => fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });

  it("POST /filter in NodeNames mode rejects the hot host's node into FailedAndUnresolvableNodes", async () => {
    const res = await post("/filter", JSON.stringify({ Pod: { metadata: { name: "p", namespace: "apps" } }, Nodes: null, NodeNames: ["w-hot", "w-cool", "w-new"] }));
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/application\/json/);
    expect(await res.json()).to.deep.equal({
      Nodes: null,
      NodeNames: ["w-cool", "w-new"],
      FailedNodes: {},
      FailedAndUnresolvableNodes: { "w-hot": "ESXi host esx-hot (host-1): cpu ready 14% >= 10% (sampled 14s ago)" },
      Error: "",
    });
  });

  it("POST /filter in Nodes mode maps by providerID and echoes passing Node objects", async () => {
    const nodes = [realisticNode("node-a", HOT_UUID, 1), realisticNode("node-b", COOL_UUID, 2)];
    const res = await post("/filter", JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: { metadata: {}, items: nodes }, NodeNames: null }));
    const body = (await res.json()) as any;
    expect(body.Nodes.items.map((n: { metadata: { name: string } }) => n.metadata.name)).to.deep.equal(["node-b"]);
    expect(body.Nodes.items[0]).to.deep.equal(nodes[1]);
    expect(Object.keys(body.FailedAndUnresolvableNodes)).to.deep.equal(["node-a"]);
  });

  it("POST /prioritize returns a bare array of integer scores", async () => {
    const res = await post("/prioritize", JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["w-hot", "w-cool", "w-new"] }));
    const body = (await res.json()) as Array<{ Host: string; Score: number }>;
    expect(body.map((h) => h.Host)).to.deep.equal(["w-hot", "w-cool", "w-new"]);
    expect(body.every((h) => Number.isInteger(h.Score))).to.equal(true);
    expect(body[0]!.Score).to.equal(0);
    expect(body[2]!.Score).to.equal(5);
    expect(body[1]!.Score).to.be.greaterThan(5);
  });

  const malformed: Array<{ name: string; path: string; body: string; error: RegExp }> = [
    { name: "truncated JSON", path: "/filter", body: '{"Pod": {', error: /malformed JSON/ },
    { name: "an empty body", path: "/filter", body: "", error: /empty request body/ },
    { name: "a missing Pod", path: "/filter", body: '{"NodeNames":["a"]}', error: /`Pod`/ },
    { name: "wrong NodeNames type", path: "/prioritize", body: '{"Pod":{},"NodeNames":"a"}', error: /NodeNames/ },
  ];
  for (const c of malformed) {
    it(`given ${c.name} on ${c.path}, answers 400 with a JSON Error`, async () => {
      const res = await post(c.path, c.body);
      expect(res.status).to.equal(400);
      const body = (await res.json()) as any;
      expect(body.Error).to.match(c.error);
    });
  }

  it("given a body above server.bodyLimitMB, answers 413 with a JSON Error naming the setting", async () => {
    const res = await post("/filter", JSON.stringify({ Pod: {}, NodeNames: ["x".repeat(2 * 1024 * 1024)] }));
    expect(res.status).to.equal(413);
    expect(((await res.json()) as any).Error).to.match(/bodyLimitMB/);
  });

  it("GET /healthz and /readyz answer ok without vCenter", async () => {
    expect((await fetch(`${base}/healthz`)).status).to.equal(200);
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);
  });

  it("GET /metrics counts requests by verb and outcome", async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).to.match(/hvx_extender_requests_total\{verb="filter",outcome="bad_request"\} [1-9]/);
    expect(text).to.match(/hvx_filter_node_verdicts_total\{verdict="reject",reason="host_metric"\} [1-9]/);
  });

  it("GET /debug/hosts lists every host with heat, age and VMs", async () => {
    const body = (await (await fetch(`${base}/debug/hosts`)).json()) as any;
    const hot = body.hosts.find((h: { id: string }) => h.id === "host-1");
    expect(hot).to.include({ heat: "hot", ageSeconds: 14 });
    expect(hot.rejections[0]).to.match(/cpu ready 14%/);
    expect(hot.vms[0]).to.include({ id: "vm-1", name: "w-hot" });
  });
});
