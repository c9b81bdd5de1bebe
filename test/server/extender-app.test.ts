import { expect } from "chai";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { gzipSync } from "node:zlib";
import { buildAdminApp } from "../../src/server/admin-app.js";
import { buildDebugHosts } from "../../src/server/debug-view.js";
import { buildExtenderApp } from "../../src/server/extender-app.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import type { Liveness } from "../../src/server/liveness.js";
import type { Readiness } from "../../src/server/readiness.js";
import { BodyBudget } from "../../src/server/request-body.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { rawRequest } from "../fixtures/raw-http.js";
import { realisticNode } from "../fixtures/wire-node.js";

const HOT_UUID = "42267e63-e4e0-c681-b5dd-f69dfa981001";
const COOL_UUID = "42267e63-e4e0-c681-b5dd-f69dfa981002";

const MB = 1024 * 1024;
const NINE_TENTHS_MB = Math.floor(0.9 * MB);

function listen(app: ReturnType<typeof buildExtenderApp>): Promise<Server> {
  return new Promise<Server>((resolve) => {
    const s = createServer(app).listen(0, "127.0.0.1", () => resolve(s));
  });
}
const portOf = (s: Server) => (s.address() as AddressInfo).port;
const closeServer = (s: Server) =>
  new Promise<void>((resolve) => {
    s.close(() => resolve());
    s.closeAllConnections();
  });

describe("extender HTTP app", () => {
  let server: Server;
  let adminServer: Server;
  let base: string;
  let admin: string;
  let registry: Registry;
  let readiness: Readiness = { ready: true, reason: "ok" };
  let liveness: Liveness = { alive: true, reason: "ok" };
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
    const handlers = createExtenderHandlers({
      source,
      policy: DEFAULT_POLICY,
      metrics: new ExtenderMetrics(registry),
      log: silentLogger(),
      clock: () => NOW_MS,
    });
    server = await listen(buildExtenderApp({ handlers, bodyLimitMB: 1, readiness: () => readiness, liveness: () => liveness }));
    adminServer = await listen(
      buildAdminApp({
        registry,
        debugHosts: () => buildDebugHosts(source.latest(), DEFAULT_POLICY, NOW_MS),
        readiness: () => readiness,
        liveness: () => liveness,
      }),
    );
    base = `http://127.0.0.1:${portOf(server)}`;
    admin = `http://127.0.0.1:${portOf(adminServer)}`;
  });
  after(async () => {
    await closeServer(server);
    await closeServer(adminServer);
  });

  const post = (path: string, body: string) =>
    fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body });

  it("given the verbs as kube-scheduler sends them and as express also accepts them (query, trailing slash), answers the same status, type and body", async () => {
    const body = JSON.stringify({
      Pod: { metadata: { name: "p", namespace: "apps" } },
      Nodes: null,
      NodeNames: ["w-hot", "w-cool", "w-new"],
    });
    for (const verb of ["filter", "prioritize"]) {
      const replies = await Promise.all(
        [`/${verb}`, `/${verb}/`, `/${verb}?x=1`].map(async (path) => {
          const res = await post(path, body);
          return {
            status: res.status,
            type: res.headers.get("content-type"),
            length: res.headers.get("content-length"),
            body: await res.text(),
          };
        }),
      );
      expect(replies[0]!.status).to.equal(200);
      expect(replies[1]).to.deep.equal(replies[0]);
      expect(replies[2]).to.deep.equal(replies[0]);
    }
  });

  it("POST /filter in NodeNames mode rejects the hot host's node into FailedAndUnresolvableNodes", async () => {
    const res = await post(
      "/filter",
      JSON.stringify({ Pod: { metadata: { name: "p", namespace: "apps" } }, Nodes: null, NodeNames: ["w-hot", "w-cool", "w-new"] }),
    );
    expect(res.status).to.equal(200);
    expect(res.headers.get("content-type")).to.match(/application\/json/);
    expect(await res.json()).to.deep.equal({
      Nodes: null,
      NodeNames: ["w-cool", "w-new"],
      FailedNodes: {},
      FailedAndUnresolvableNodes: { "w-hot": "node(s) on hot ESXi hosts (cpu ready)" },
      Error: "",
    });
  });

  it("POST /filter in Nodes mode maps by providerID and echoes passing Node objects", async () => {
    const nodes = [realisticNode("node-a", HOT_UUID, 1), realisticNode("node-b", COOL_UUID, 2)];
    const res = await post(
      "/filter",
      JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: { metadata: {}, items: nodes }, NodeNames: null }),
    );
    const body = (await res.json()) as any;
    expect(body.Nodes.items.map((n: { metadata: { name: string } }) => n.metadata.name)).to.deep.equal(["node-b"]);
    expect(body.Nodes.items[0]).to.deep.equal(nodes[1]);
    expect(Object.keys(body.FailedAndUnresolvableNodes)).to.deep.equal(["node-a"]);
  });

  it("POST /prioritize returns a bare array of integer scores", async () => {
    const res = await post(
      "/prioritize",
      JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["w-hot", "w-cool", "w-new"] }),
    );
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
    expect(((await res.json()) as any).Error).to.match(/^hvx: request body larger than 1 MB \(server\.bodyLimitMB\)$/);
  });

  it("given a Content-Length over the limit, answers 413 before any byte of the body arrives", async () => {
    const a = await rawRequest({
      port: portOf(server),
      path: "/filter",
      headers: { "Content-Type": "application/json", "Content-Length": String(1024 * MB) },
      timeoutMs: 3000,
    });
    expect(a.status).to.equal(413);
  });

  it("given a chunked body that grows past the limit, answers 413 while it is still streaming", async () => {
    const a = await rawRequest({
      port: portOf(server),
      path: "/prioritize",
      headers: { "Content-Type": "application/json" },
      stream: { chunk: Buffer.alloc(64 * 1024, 0x20), totalBytes: 200 * MB },
    });
    expect(a.status).to.equal(413);
    expect(JSON.parse(a.body).Error).to.match(/server\.bodyLimitMB/);
    expect(a.sentBytes, "the client was stopped long before the end of its 200 MB").to.be.below(50 * MB);
  });

  for (const coding of ["gzip", "deflate", "br", "GZIP", "identity, gzip"]) {
    it(`given Content-Encoding: ${coding}, answers 415 with a JSON Error and never inflates`, async () => {
      const a = await rawRequest({
        port: portOf(server),
        path: "/filter",
        headers: { "Content-Type": "application/json", "Content-Encoding": coding },
        body: gzipSync(Buffer.from('{"Pod":{},"NodeNames":["w-cool"]}')),
      });
      expect(a.status).to.equal(415);
      expect(JSON.parse(a.body).Error).to.match(/^hvx: Content-Encoding .* is not accepted/);
    });
  }

  it("given Content-Encoding: identity, reads the body as usual", async () => {
    const a = await rawRequest({
      port: portOf(server),
      path: "/filter",
      headers: { "Content-Type": "application/json", "Content-Encoding": "identity" },
      body: '{"Pod":{},"NodeNames":["w-cool"]}',
    });
    expect(a.status).to.equal(200);
    expect(JSON.parse(a.body).NodeNames).to.deep.equal(["w-cool"]);
  });

  it("refuses compressed bodies on every endpoint of both ports, /healthz and /metrics included", async () => {
    for (const [port, path, method] of [
      [portOf(server), "/healthz", "GET"],
      [portOf(server), "/nowhere", "POST"],
      [portOf(adminServer), "/metrics", "GET"],
      [portOf(adminServer), "/debug/hosts", "GET"],
    ] as const) {
      const a = await rawRequest({ port, path, method, headers: { "Content-Encoding": "gzip" }, body: gzipSync("{}") });
      expect(a.status, `${method} ${path}`).to.equal(415);
    }
  });

  it("given more large bodies at once than the body budget holds, refuses the one that does not fit with 503", async () => {
    const handlers = { filter: (body: Buffer | string) => ({ status: 200, body: JSON.stringify({ length: body.length }) }) };
    const small = await listen(buildExtenderApp({ handlers, bodyLimitMB: 1, bodyBudget: new BodyBudget(1.5 * MB) }));
    try {
      // A sends 0.9 MB and then waits; B's 0.9 MB does not fit beside it.
      const { request } = await import("node:http");
      const first = request({
        host: "127.0.0.1",
        port: portOf(small),
        path: "/filter",
        method: "POST",
        headers: { "Content-Length": String(NINE_TENTHS_MB + 1) },
        agent: false,
      });
      const firstAnswer = new Promise<number>((resolve, reject) => {
        first.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        first.on("error", reject);
      });
      first.write(Buffer.alloc(NINE_TENTHS_MB, 0x20));
      await new Promise((r) => setTimeout(r, 200));
      const second = await rawRequest({ port: portOf(small), path: "/filter", body: Buffer.alloc(NINE_TENTHS_MB, 0x20) });
      expect(second.status).to.equal(503);
      expect(second.headers["retry-after"]).to.equal("1");
      first.end("x");
      expect(await firstAnswer).to.equal(200);
      const third = await rawRequest({ port: portOf(small), path: "/filter", body: Buffer.alloc(NINE_TENTHS_MB, 0x20) });
      expect(third.status, "the budget is given back").to.equal(200);
    } finally {
      await closeServer(small);
    }
  });

  it("GET /healthz and /readyz answer ok without vCenter, on both ports", async () => {
    for (const b of [base, admin]) {
      expect((await fetch(`${b}/healthz`)).status).to.equal(200);
      expect((await fetch(`${b}/readyz`)).status).to.equal(200);
    }
  });

  it("GET /readyz answers 503 with the reason while not ready, on both ports; /healthz stays 200", async () => {
    readiness = { ready: false, reason: "shutting down" };
    try {
      for (const b of [base, admin]) {
        const res = await fetch(`${b}/readyz`);
        expect([res.status, await res.text()]).to.deep.equal([503, "shutting down"]);
        expect((await fetch(`${b}/healthz`)).status).to.equal(200);
      }
    } finally {
      readiness = { ready: true, reason: "ok" };
    }
  });

  it("GET /healthz answers 503 with the reason while the event loop is stalled, on both ports; /readyz stays 200", async () => {
    liveness = { alive: false, reason: "event loop blocked 20.0 s of the last 30 s (more than 50 %)" };
    try {
      for (const b of [base, admin]) {
        const res = await fetch(`${b}/healthz`);
        expect([res.status, await res.text()]).to.deep.equal([503, liveness.reason]);
        expect((await fetch(`${b}/readyz`)).status).to.equal(200);
      }
    } finally {
      liveness = { alive: true, reason: "ok" };
    }
  });

  it("serves neither /metrics nor /debug on the extender port, and says where they are", async () => {
    for (const path of ["/metrics", "/debug/hosts"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).to.equal(404);
      expect(((await res.json()) as any).Error, path).to.match(/admin port \(server\.adminPort\)/);
    }
  });

  it("serves no extender verb on the admin port", async () => {
    const res = await fetch(`${admin}/filter`, { method: "POST", body: "{}" });
    expect(res.status).to.equal(404);
  });

  it("GET /metrics (admin port) counts requests by verb and outcome", async () => {
    const text = await (await fetch(`${admin}/metrics`)).text();
    expect(text).to.match(/hvx_extender_requests_total\{verb="filter",outcome="bad_request"\} [1-9]/);
    expect(text).to.match(/hvx_filter_node_verdicts_total\{verdict="reject",reason="host_metric"\} [1-9]/);
  });

  it("GET /debug/hosts (admin port) lists every host with heat, age and VMs", async () => {
    const body = (await (await fetch(`${admin}/debug/hosts`)).json()) as any;
    const hot = body.hosts.find((h: { id: string }) => h.id === "host-1");
    expect(hot).to.include({ heat: "hot", ageSeconds: 14 });
    expect(hot.rejections[0]).to.match(/cpu ready 14%/);
    expect(hot.vms[0]).to.include({ id: "vm-1", name: "w-hot" });
  });
});

describe("extender HTTP app, replies with characters outside ASCII", () => {
  it("given a node name outside ASCII in a rejection, sends the reply's UTF-8 bytes with their length, request after request", async () => {
    const source = new FakeMetricsSource(
      inventoryOf(
        [hostView({ id: "host-1", name: "esx-köln-☃", metrics: { cpuReadyPercent: 14 } })],
        [vmView({ id: "vm-1", name: "w-köln-☃", hostId: "host-1", biosUuid: HOT_UUID })],
      ),
    );
    const handlers = createExtenderHandlers({
      source,
      policy: DEFAULT_POLICY,
      metrics: new ExtenderMetrics(new Registry()),
      log: silentLogger(),
      clock: () => NOW_MS,
    });
    const server = await listen(buildExtenderApp({ handlers, bodyLimitMB: 1 }));
    try {
      const body = JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["w-köln-☃"] });
      const texts: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`http://127.0.0.1:${portOf(server)}/filter`, { method: "POST", body });
        const text = await res.text();
        expect(Number(res.headers.get("content-length"))).to.equal(Buffer.byteLength(text));
        texts.push(text);
      }
      expect(texts[1]).to.equal(texts[0]);
      expect(JSON.parse(texts[0]!).FailedAndUnresolvableNodes).to.have.keys("w-köln-☃");
    } finally {
      await closeServer(server);
    }
  });
});
