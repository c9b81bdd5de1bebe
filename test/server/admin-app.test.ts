import { expect } from "chai";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { buildAdminApp } from "../../src/server/admin-app.js";

describe("buildAdminApp", () => {
  let server: Server;
  let base: string;
  before(async () => {
    const app = buildAdminApp({
      registry: new Registry(),
      debugHosts: () => ({ hosts: [{ id: "h" }] }),
      debugViews: {
        cluster: () => ({ synced: true }),
        nodes: () => ({ nodes: [] }),
        later: () => Promise.resolve({ computed: true }),
        broken: () => Promise.reject(new Error("view failed")),
      },
    });
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const cases: Array<{ name: string; path: string; headers?: Record<string, string>; type: RegExp; body: string }> = [
    { name: "no hint", path: "/debug/hosts", type: /^application\/json/, body: '{"hosts":[{"id":"h"}]}' },
    {
      name: "?pretty",
      path: "/debug/hosts?pretty",
      type: /^application\/json/,
      body: '{\n  "hosts": [\n    {\n      "id": "h"\n    }\n  ]\n}\n',
    },
    {
      name: "Accept: text/plain",
      path: "/debug/cluster",
      headers: { Accept: "text/plain" },
      type: /^text\/plain/,
      body: '{\n  "synced": true\n}\n',
    },
  ];
  for (const c of cases) {
    it(`given ${c.name}, answers ${JSON.stringify(c.body)}`, async () => {
      const res = await fetch(`${base}${c.path}`, { headers: c.headers ?? {} });
      expect(res.headers.get("content-type")).to.match(c.type);
      expect(await res.text()).to.equal(c.body);
    });
  }

  it("given a view that answers with a promise, serves what it resolves to", async () => {
    const res = await fetch(`${base}/debug/later`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ computed: true });
  });

  it("given a view whose promise rejects, answers 500 with the error as JSON", async () => {
    const res = await fetch(`${base}/debug/broken`);
    expect(res.status).to.equal(500);
    expect(res.headers.get("content-type")).to.match(/^application\/json/);
    expect(((await res.json()) as { Error: string }).Error).to.include("view failed");
  });

  it("given an unknown path, the 404 lists every endpoint of the admin port", async () => {
    const res = await fetch(`${base}/debug/nope`);
    expect(res.status).to.equal(404);
    const error = ((await res.json()) as { Error: string }).Error;
    for (const endpoint of ["GET /metrics", "GET /debug/hosts", "GET /debug/cluster", "GET /debug/nodes", "GET /healthz", "GET /readyz"])
      expect(error).to.include(endpoint);
  });
});
