import { expect } from "chai";
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
