import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_TOKENS, shippedRbacYaml, startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { accessReviewer } from "../../src/cluster/index.js";
import { DelegatedAccess } from "../../src/server/delegated-access.js";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { Registry } from "prom-client";
import { buildAdminApp } from "../../src/server/admin-app.js";
import type { DebugAccess } from "../../src/server/debug-access.js";

/** An address of this machine that is not loopback (the pod IP, in a pod), or undefined. */
function externalIpv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
}

/** Issue 28: /debug/* and /ui name hosts, VMs and pods; by default only loopback connections read them. */
describe("server.debugAccess on the admin port", () => {
  const servers: Server[] = [];
  after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));
  const start = async (debugAccess?: DebugAccess): Promise<number> => {
    const app = buildAdminApp({
      registry: new Registry(),
      debugHosts: () => ({ hosts: [] }),
      uiPage: () => "<html></html>",
      ...(debugAccess ? { debugAccess } : {}),
    });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "0.0.0.0", () => resolve(s));
    });
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };
  const statuses = async (host: string, port: number) =>
    Object.fromEntries(
      await Promise.all(
        ["/debug/hosts", "/ui", "/metrics", "/healthz"].map(async (p) => [p, (await fetch(`http://${host}:${port}${p}`)).status]),
      ),
    );

  it("given the default (loopback) and a connection to 127.0.0.1 (port-forward, the demo), answers everything", async () => {
    expect(await statuses("127.0.0.1", await start())).to.deep.equal({ "/debug/hosts": 200, "/ui": 200, "/metrics": 200, "/healthz": 200 });
  });

  it("given the default (loopback) and a connection to the machine's own non-loopback address, refuses /debug and /ui with 403, keeps /metrics and /healthz", async function () {
    const host = externalIpv4();
    if (host === undefined) this.skip();
    const port = await start();
    expect(await statuses(host!, port)).to.deep.equal({ "/debug/hosts": 403, "/ui": 403, "/metrics": 200, "/healthz": 200 });
    const body = (await (await fetch(`http://${host}:${port}/debug/hosts`)).json()) as { Error: string };
    expect(body.Error).to.match(/server\.debugAccess: loopback.*kubectl port-forward/);
  });

  it("given debugAccess: open and the non-loopback address, answers /debug and /ui", async function () {
    const host = externalIpv4();
    if (host === undefined) this.skip();
    expect(await statuses(host!, await start("open"))).to.deep.equal({ "/debug/hosts": 200, "/ui": 200, "/metrics": 200, "/healthz": 200 });
  });
});

/**
 * server.debugAccess: delegated, against the fake API server's TokenReview and
 * SubjectAccessReview (authentication.k8s.io/v1, authorization.k8s.io/v1).
 */
describe("server.debugAccess: delegated (fake API server)", function () {
  this.timeout(20_000);
  // The built-in ClusterRole the example binds hvx to (its real rules), and the viewer's binding.
  const AUTH_DELEGATOR = [
    "apiVersion: rbac.authorization.k8s.io/v1",
    "kind: ClusterRole",
    "metadata: { name: 'system:auth-delegator' }",
    "rules:",
    "  - { apiGroups: [authentication.k8s.io], resources: [tokenreviews], verbs: [create] }",
    "  - { apiGroups: [authorization.k8s.io], resources: [subjectaccessreviews], verbs: [create] }",
  ].join("\n");
  const VIEWER_BINDING = [
    "apiVersion: rbac.authorization.k8s.io/v1",
    "kind: ClusterRoleBinding",
    "metadata: { name: jane-debug }",
    "roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: hvx-debug-viewer }",
    "subjects: [{ kind: User, name: jane@example.com }]",
  ].join("\n");
  const example = readFileSync(join(process.cwd(), "manifests/examples/delegated-debug-access.yaml"), "utf8");
  const fakes: FakeKubeApiserver[] = [];
  const servers: Server[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await Promise.all(fakes.map((f) => f.close()));
  });
  const start = async (rbac: string): Promise<{ host: string; port: number }> => {
    const fake = await startFakeKubeApiserver({ rbac });
    fakes.push(fake);
    const delegated = new DelegatedAccess(accessReviewer(fake.kubeConfig("hvx"), 5000), { ttlMs: 10_000, clock: Date.now });
    const app = buildAdminApp({ registry: new Registry(), debugHosts: () => ({ hosts: [] }), debugAccess: "delegated", delegated });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "0.0.0.0", () => resolve(s));
    });
    servers.push(server);
    return { host: externalIpv4()!, port: (server.address() as AddressInfo).port };
  };
  const status = async (at: { host: string; port: number }, path: string, token?: string) =>
    (await fetch(`http://${at.host}:${at.port}${path}`, token ? { headers: { Authorization: `Bearer ${token}` } } : {})).status;

  it("given the example RBAC, from another address: no token 401, a user without the role 403, a bound user 200; /metrics needs nothing", async function () {
    if (externalIpv4() === undefined) this.skip();
    const at = await start([shippedRbacYaml(), example, AUTH_DELEGATOR, VIEWER_BINDING].join("\n---\n"));
    expect(await status(at, "/debug/hosts")).to.equal(401);
    expect(await status(at, "/debug/hosts", "not-a-token")).to.equal(401);
    expect(await status(at, "/debug/hosts", FAKE_TOKENS.hvx), "hvx's own ServiceAccount has no hvx-debug-viewer").to.equal(403);
    expect(await status(at, "/debug/hosts", FAKE_TOKENS.viewer)).to.equal(200);
    expect(await status(at, "/metrics")).to.equal(200);
  });

  it("given hvx without system:auth-delegator (the API server refuses its reviews), answers 503, never the view", async function () {
    if (externalIpv4() === undefined) this.skip();
    const at = await start([shippedRbacYaml(), VIEWER_BINDING].join("\n---\n"));
    expect(await status(at, "/debug/hosts", FAKE_TOKENS.viewer)).to.equal(503);
  });
});
