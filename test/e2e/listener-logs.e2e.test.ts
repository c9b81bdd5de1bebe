import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import { startHvx } from "../../src/main.js";
import { request } from "node:http";
import { createLogger, silentLogger } from "../../src/observability/logger.js";
import { demoScenarioPath, loadScenario, startMockVcenter } from "../../mocks/vcenter/index.js";
import { freePort } from "../fixtures/net.js";

/** Issue 15 section 3: one start-up log line per listener, naming every endpoint it serves. */
describe("hvx serve start-up log (in process)", function () {
  this.timeout(30_000);

  it("logs exactly one 'listening' line for each of the extender, admin and admission listeners", async () => {
    const scenario = loadScenario(demoScenarioPath());
    const mock = await startMockVcenter({ scenario });
    const lines: Array<{ msg: string }> = [];
    const log = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
    const config = parseConfig(
      [
        `server: { address: 127.0.0.1, port: ${await freePort()}, adminPort: ${await freePort()} }`,
        `vcenter: { url: "${mock.url}", allowPlaintext: true, username: "${scenario.credentials.username}", password: "${scenario.credentials.password}" }`,
        "kubernetes: { enabled: false }",
        `admission: { port: ${await freePort()} }`,
      ].join("\n"),
    );
    const hvx = await startHvx(config, log, { inCluster: false });
    try {
      const listening = lines.map((l) => l.msg).filter((m) => /listening/.test(m));
      expect(listening).to.have.length(3);
      expect(listening.filter((m) => m.startsWith("extender listening"))).to.have.length(1);
      expect(listening.filter((m) => m.startsWith("admission webhook listening (POST /mutate"))).to.have.length(1);
      const admin = listening.find((m) => m.startsWith("admin listening"))!;
      for (const endpoint of ["GET /metrics", "GET /debug/hosts", "GET /debug/nodes", "GET /debug/shadow", "GET /healthz", "GET /readyz"])
        expect(admin).to.include(endpoint);
    } finally {
      await hvx.stop();
      await mock.close();
    }
  });

  it("given server.address, server.adminAddress and admission.address, listens on those addresses only", async () => {
    const scenario = loadScenario(demoScenarioPath());
    const mock = await startMockVcenter({ scenario });
    // 127.0.0.2 is a loopback address too (127/8), so nothing else answers there; 127.0.0.1 must refuse.
    const config = parseConfig(
      [
        `server: { address: 127.0.0.2, port: ${await freePort()}, adminAddress: 127.0.0.2, adminPort: ${await freePort()} }`,
        `vcenter: { url: "${mock.url}", allowPlaintext: true, username: "${scenario.credentials.username}", password: "${scenario.credentials.password}" }`,
        "kubernetes: { enabled: false }",
        `admission: { address: 127.0.0.2, port: ${await freePort()} }`,
      ].join("\n"),
    );
    const hvx = await startHvx(config, silentLogger(), { inCluster: false });
    const healthz = (host: string, port: number) =>
      new Promise<string>((resolve) => {
        const req = request({ host, port, path: "/healthz", agent: false }, (res) => {
          res.resume();
          resolve(String(res.statusCode));
        });
        req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        req.end();
      });
    try {
      for (const port of [hvx.extenderPort, hvx.adminPort]) {
        expect(await healthz("127.0.0.2", port), `127.0.0.2:${port}`).to.equal("200");
        expect(await healthz("127.0.0.1", port), `127.0.0.1:${port}`).to.equal("ECONNREFUSED");
      }
      expect(await healthz("127.0.0.1", hvx.admissionPort!)).to.equal("ECONNREFUSED");
      expect(await healthz("127.0.0.2", hvx.admissionPort!)).to.not.equal("ECONNREFUSED");
    } finally {
      await hvx.stop();
      await mock.close();
    }
  });

  // Issue 28: plain HTTP off loopback starts only on the operator's word, and says so.
  it("given server.allowPlaintext: true on every interface, starts and warns naming the key, once", async () => {
    const scenario = loadScenario(demoScenarioPath());
    const mock = await startMockVcenter({ scenario });
    const lines: Array<{ level: number; msg: string; key?: string }> = [];
    const log = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
    const config = parseConfig(
      [
        `server: { allowPlaintext: true, port: ${await freePort()}, adminPort: ${await freePort()} }`,
        `vcenter: { url: "${mock.url}", allowPlaintext: true, username: "${scenario.credentials.username}", password: "${scenario.credentials.password}" }`,
        "kubernetes: { enabled: false }",
        "admission: { enabled: false }",
      ].join("\n"),
    );
    const hvx = await startHvx(config, log, { inCluster: false });
    try {
      const warned = lines.filter((l) => l.level === 40 && /allowPlaintext is true/.test(l.msg)).map((l) => l.key);
      expect(warned).to.deep.equal(["server.allowPlaintext", "vcenter.allowPlaintext"]);
    } finally {
      await hvx.stop();
      await mock.close();
    }
  });
});
