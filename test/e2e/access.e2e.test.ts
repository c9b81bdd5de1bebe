import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../../src/config/index.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { makeCa, makeSigned, type PemFiles } from "../fixtures/certs.js";
import { freePort } from "../fixtures/net.js";
import { rawRequest } from "../fixtures/raw-http.js";

/**
 * Issue 8 section 6: the extender port serves kube-scheduler's verbs and health over mutual
 * TLS (server.tls with clientCAFile, as kube-scheduler's extender tlsConfig presents a client
 * certificate); metrics and debug views are on the admin port only.
 */
describe("access: mutual TLS on the extender port, metrics on the admin port (in process)", function () {
  this.timeout(30_000);
  let dir = "";
  let hvx: RunningHvx;
  let ca: PemFiles;
  let client: PemFiles;
  let serving: PemFiles;
  const body = JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["a"] });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "hvx-access-"));
    ca = makeCa(dir, "ca");
    serving = makeSigned(dir, "hvx", ca);
    const server = serving;
    client = makeSigned(dir, "kube-scheduler", ca);
    const config = parseConfig(
      [
        `server: { address: 127.0.0.1, port: ${await freePort()}, adminPort: ${await freePort()}, tls: { certFile: "${server.certFile}", keyFile: "${server.keyFile}", clientCAFile: "${ca.certFile}", allowedClientNames: [kube-scheduler] } }`,
        `vcenter: { url: "http://127.0.0.1:${await freePort()}", allowPlaintext: true, username: u, password: p }`,
        "kubernetes: { enabled: false }",
        "admission: { enabled: false }",
      ].join("\n"),
    );
    hvx = await startHvx(config, silentLogger(), { inCluster: false });
  });
  after(async () => {
    await hvx?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const tls = (withClient: boolean) => ({
    ca: ca.cert,
    servername: "hvx.hvx-system.svc",
    ...(withClient ? { cert: client.cert, key: client.key } : {}),
  });

  it("answers /filter to kube-scheduler's client certificate", async () => {
    expect(hvx.extenderTls).to.equal(true);
    const a = await rawRequest({
      port: hvx.extenderPort,
      path: "/filter",
      headers: { "Content-Type": "application/json" },
      body,
      tls: tls(true),
    });
    expect(a.status).to.equal(200);
    expect(JSON.parse(a.body).NodeNames).to.deep.equal(["a"]);
  });

  it("refuses a client without a certificate", async () => {
    const outcome = await rawRequest({ port: hvx.extenderPort, path: "/filter", body, tls: tls(false), timeoutMs: 5000 }).then(
      (a) => `answered ${a.status}`,
      (e: NodeJS.ErrnoException) => e.code ?? e.message,
    );
    expect(outcome).to.match(/CERTIFICATE_REQUIRED/);
  });

  // Issue 28: the CA signs hvx's serving certificate too; it must not pass as kube-scheduler.
  it("refuses hvx's own serving certificate as a client certificate (not in server.tls.allowedClientNames)", async () => {
    const outcome = await rawRequest({
      port: hvx.extenderPort,
      path: "/filter",
      body,
      tls: { ca: ca.cert, servername: "hvx.hvx-system.svc", cert: serving.cert, key: serving.key },
      timeoutMs: 5000,
    }).then(
      (a) => `answered ${a.status}`,
      (e: NodeJS.ErrnoException) => e.code ?? e.message,
    );
    expect(outcome).to.not.match(/^answered/);
  });

  it("refuses plain HTTP on the extender port", async () => {
    const outcome = await rawRequest({ port: hvx.extenderPort, path: "/filter", body, timeoutMs: 5000 }).then(
      (a) => `answered ${a.status}`,
      (e: NodeJS.ErrnoException) => e.code ?? e.message,
    );
    expect(outcome).to.not.equal("answered 200");
  });

  it("serves /metrics, /debug/hosts and health on the admin port (plain HTTP), and not on the extender port", async () => {
    const admin = `http://127.0.0.1:${hvx.adminPort}`;
    expect(await (await fetch(`${admin}/metrics`)).text()).to.match(/hvx_extender_requests_total\{verb="filter",outcome="ok"\} 1/);
    expect((await fetch(`${admin}/debug/hosts`)).status).to.equal(200);
    expect((await fetch(`${admin}/healthz`)).status).to.equal(200);
    const onExtender = await rawRequest({ port: hvx.extenderPort, path: "/metrics", method: "GET", tls: tls(true) });
    expect(onExtender.status).to.equal(404);
    const health = await rawRequest({ port: hvx.extenderPort, path: "/healthz", method: "GET", tls: tls(true) });
    expect([health.status, health.body]).to.deep.equal([200, "ok"]);
  });
});
