import { expect } from "chai";
import { createServer, type Server, type Socket } from "node:net";
import { parseConfig } from "../../src/config/index.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";

/** A "vCenter" that accepts connections and never answers: the first poll cycle hangs. */
async function silentVcenter(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Issue 8 section 4: /readyz is 200 once the first poll cycle has ended (success or failure)
 * or server.readinessGraceSeconds after start, whichever first; never dependent on vCenter after.
 */
describe("readiness of hvx serve (in process)", function () {
  this.timeout(30_000);
  let hvx: RunningHvx | undefined;
  afterEach(async () => {
    await hvx?.stop();
    hvx = undefined;
  });

  const start = async (vcenterUrl: string, graceSeconds: number) => {
    const config = parseConfig(
      [
        `server: { address: 127.0.0.1, port: ${await freePort()}, adminPort: ${await freePort()}, readinessGraceSeconds: ${graceSeconds} }`,
        `vcenter: { url: "${vcenterUrl}", allowPlaintext: true, username: u, password: p, requestTimeoutSeconds: 60 }`,
        "kubernetes: { enabled: false }",
        "admission: { enabled: false }",
      ].join("\n"),
    );
    const startedAt = Date.now();
    hvx = await startHvx(config, silentLogger(), { inCluster: false });
    return { startedAt, running: hvx };
  };
  const readyz = async (port: number) => {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return { status: res.status, text: await res.text() };
  };

  it("given a vCenter that never answers, is not ready (503, both ports) until the grace period ends, and answers /filter meanwhile", async () => {
    const vc = await silentVcenter();
    try {
      const { startedAt, running } = await start(vc.url, 2);
      for (const port of [running.extenderPort, running.adminPort]) {
        const r = await readyz(port);
        expect(r.status).to.equal(503);
        expect(r.text).to.match(/^starting: waiting for the first vCenter poll cycle/);
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).to.equal(200);
      }
      const filter = await fetch(`http://127.0.0.1:${running.extenderPort}/filter`, {
        method: "POST",
        body: JSON.stringify({ Pod: {}, NodeNames: ["a"] }),
      });
      expect(filter.status).to.equal(200);
      const readyAt = await until(
        async () => ((await readyz(running.extenderPort)).status === 200 ? Date.now() : undefined),
        10_000,
        "ready after the grace",
        100,
      );
      expect(readyAt - startedAt).to.be.within(1900, 4000);
      expect((await readyz(running.adminPort)).status).to.equal(200);
    } finally {
      await hvx?.stop();
      hvx = undefined;
      await vc.close();
    }
  });

  it("given a vCenter that refuses connections, is ready as soon as the first poll cycle has failed (long before the 30 s grace)", async () => {
    const refused = await freePort();
    const { startedAt, running } = await start(`http://127.0.0.1:${refused}`, 30);
    const readyAt = await until(
      async () => ((await readyz(running.extenderPort)).status === 200 ? Date.now() : undefined),
      10_000,
      "ready after the failed poll",
      50,
    );
    expect(readyAt - startedAt).to.be.below(5000);
  });
});
