import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import { Registry } from "prom-client";
import type { MetricsSource } from "../../src/model/metrics-source.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import type { ExplainReply } from "../../src/protocol/explain-wire.js";
import { buildAdminApp } from "../../src/server/admin-app.js";
import { createExplainHandler, type ExplainDeps } from "../../src/server/explain-handler.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { biosUuidFor, realisticNode } from "../fixtures/wire-node.js";

// esx-hot (ready 14 % >= 10 %) carries vm 1, esx-cool carries vm 2; node names = VM names.
const inventory = inventoryOf(
  [hostView({ id: "host-1", name: "esx-hot", metrics: { cpuReadyPercent: 14 } }), hostView({ id: "host-2", name: "esx-cool" })],
  [
    vmView({ id: "vm-1", name: "node-1", hostId: "host-1", biosUuid: biosUuidFor(1) }),
    vmView({ id: "vm-2", name: "node-2", hostId: "host-2", biosUuid: biosUuidFor(2) }),
  ],
);
const source: MetricsSource = { latest: () => inventory };
const clock = () => NOW_MS;
const pod = { metadata: { name: "api-1", namespace: "payments" } };

async function serve(deps: Partial<ExplainDeps>): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createExplainHandler({ source, policy: DEFAULT_POLICY, clock, ...deps });
  const app = buildAdminApp({ registry: new Registry(), debugHosts: () => ({}), explain: { handler, bodyLimitMB: 1 } });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("/debug/explain (admin port)", () => {
  let admin: { url: string; close(): Promise<void> };
  const extender = createExtenderHandlers({
    source,
    policy: DEFAULT_POLICY,
    clock,
    metrics: new ExtenderMetrics(new Registry()),
    log: silentLogger(),
  });
  before(async () => {
    admin = await serve({});
  });
  after(() => admin.close());

  const post = async (body: string) => {
    const res = await fetch(`${admin.url}/debug/explain`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    return { status: res.status, json: (await res.json()) as ExplainReply & { Error?: string } };
  };

  const modes = [
    { name: "NodeNames", body: JSON.stringify({ Pod: pod, Nodes: null, NodeNames: ["node-1", "node-2", "node-9"] }) },
    {
      name: "Nodes",
      body: JSON.stringify({
        Pod: pod,
        Nodes: { items: [realisticNode("node-1", biosUuidFor(1), 1), realisticNode("node-2", biosUuidFor(2), 2)] },
        NodeNames: null,
      }),
    },
  ];
  for (const m of modes) {
    it(`given ExtenderArgs in ${m.name} mode, answers per node the verdict /filter gives and the score /prioritize gives`, async () => {
      const { status, json } = await post(m.body);
      expect(status).to.equal(200);
      expect(json.pod).to.equal("payments/api-1");
      const filter = JSON.parse(extender.filter(m.body).body) as {
        FailedAndUnresolvableNodes: Record<string, string>;
        FailedNodes: Record<string, string>;
      };
      const scores = JSON.parse(extender.prioritize(m.body).body) as Array<{ Host: string; Score: number }>;
      expect(json.nodes.map((n) => n.node)).to.deep.equal(scores.map((s) => s.Host));
      for (const n of json.nodes) {
        const failed = filter.FailedAndUnresolvableNodes[n.node] ?? filter.FailedNodes[n.node];
        expect(n.verdict, n.node).to.equal(failed === undefined ? "pass" : "reject");
        if (failed !== undefined) expect(n.reasons, n.node).not.to.be.empty;
        expect(n.score, n.node).to.equal(scores.find((s) => s.Host === n.node)!.Score);
      }
      const hot = json.nodes.find((n) => n.node === "node-1")!;
      expect(hot).to.deep.include({ heat: "hot", why: "cpu ready 14% >= 10%" });
      // kube-scheduler gets the short, host-free text; explain keeps the host, value and threshold.
      expect(filter.FailedAndUnresolvableNodes["node-1"]).to.equal("node(s) on hot ESXi hosts (cpu ready)");
      expect(hot.reasons[0]).to.match(/^ESXi host esx-hot \(host-1\): cpu ready 14% >= 10%/);
      expect(hot.mapping).to.deep.equal({
        rule: m.name === "Nodes" ? "providerID" : "name",
        vm: { id: "vm-1", name: "node-1" },
        host: { id: "host-1", name: "esx-hot" },
      });
    });
  }

  const bad = [
    { name: "an empty body", body: "" },
    { name: "malformed JSON", body: "{" },
    { name: "no Pod", body: JSON.stringify({ NodeNames: ["node-1"] }) },
    { name: "neither Nodes nor NodeNames", body: JSON.stringify({ Pod: pod }) },
    { name: "NodeNames not strings", body: JSON.stringify({ Pod: pod, NodeNames: [1] }) },
  ];
  for (const b of bad) {
    it(`given ${b.name}, answers 400 with the message /filter gives`, async () => {
      const { status, json } = await post(b.body);
      expect(status).to.equal(400);
      const filter = extender.filter(b.body);
      expect(filter.status).to.equal(400);
      expect(json.Error).to.equal((JSON.parse(filter.body) as { Error: string }).Error);
    });
  }

  it("given GET ?pod= without a cluster cache, answers 400 saying so", async () => {
    const res = await fetch(`${admin.url}/debug/explain?pod=payments/api-1`);
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { Error: string }).Error).to.match(/no Kubernetes cluster cache/);
  });
});

describe("GET /debug/explain?pod= (with a cluster cache)", () => {
  let admin: { url: string; close(): Promise<void> };
  const asked: string[] = [];
  before(async () => {
    admin = await serve({
      cluster: {
        readPod: async (namespace, name) => {
          asked.push(`${namespace}/${name}`);
          return name === "api-1" ? { ...pod, metadata: { ...pod.metadata, namespace } } : undefined;
        },
        nodeNames: () => ["node-1", "node-2"],
      },
    });
  });
  after(() => admin.close());

  const cases = [
    { name: "a pending pod", query: "?pod=payments/api-1", status: 200, error: undefined },
    { name: "an unknown pod", query: "?pod=payments/nope", status: 400, error: /pod payments\/nope not found/ },
    { name: "no namespace", query: "?pod=api-1", status: 400, error: /NAMESPACE\/NAME/ },
    { name: "no pod", query: "", status: 400, error: /NAMESPACE\/NAME/ },
  ];
  for (const c of cases) {
    it(`given ${c.name}, answers ${c.status}`, async () => {
      const res = await fetch(`${admin.url}/debug/explain${c.query}`);
      expect(res.status).to.equal(c.status);
      const json = (await res.json()) as ExplainReply & { Error?: string };
      if (c.error) expect(json.Error).to.match(c.error);
      else
        expect(json.nodes.map((n) => [n.node, n.verdict])).to.deep.equal([
          ["node-1", "reject"],
          ["node-2", "pass"],
        ]);
    });
  }
});

describe("/debug/explain when the source has no data (issue 27 §1)", () => {
  const down = "vCenter vijson GET /sdk/vim25/8.0.1.0/ServiceInstance/ServiceInstance/content answered 404: set vcenter.api: soap";
  it("given a source that never polled successfully, says the source is down and why, never a node-mapping error", async () => {
    const admin = await serve({
      source: { latest: () => ({ hosts: new Map(), vms: new Map() }) },
      sourceStatus: () => ({ consecutiveFailures: 3, lastAttemptMs: NOW_MS - 1000, lastError: down }),
    });
    try {
      const res = await fetch(`${admin.url}/debug/explain`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ Pod: pod, Nodes: null, NodeNames: ["node-1"] }),
      });
      const reply = (await res.json()) as ExplainReply;
      expect(reply.sourceDown).to.include("source is down").and.include(down);
      const text = JSON.stringify(reply.nodes);
      expect(text).to.include("vcenter.api: soap");
      expect(text).to.not.include("no vSphere VM matches");
    } finally {
      await admin.close();
    }
  });

  it("given a source with data, adds nothing", async () => {
    const admin = await serve({ sourceStatus: () => ({ consecutiveFailures: 1, lastAttemptMs: NOW_MS, lastError: "boom" }) });
    try {
      const res = await fetch(`${admin.url}/debug/explain`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ Pod: pod, Nodes: null, NodeNames: ["node-1"] }),
      });
      expect(((await res.json()) as ExplainReply).sourceDown).to.equal(undefined);
    } finally {
      await admin.close();
    }
  });
});
