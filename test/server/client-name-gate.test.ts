import { expect } from "chai";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Registry } from "prom-client";
import { createLogger } from "../../src/observability/logger.js";
import { createTlsHandshakeMetrics } from "../../src/observability/tls-handshake-metrics.js";
import { type RunningListener, startListener } from "../../src/server/start-listener.js";
import { makeCa, makeSigned, type PemFiles } from "../fixtures/certs.js";
import { rawRequest } from "../fixtures/raw-http.js";

/** Issue 28: with server.tls.allowedClientNames, a certificate the CA signed is not enough; hvx's own serving certificate used to pass. */
describe("server.tls.allowedClientNames on a mutual-TLS listener", () => {
  let dir: string;
  let ca: PemFiles;
  let serving: PemFiles;
  let scheduler: PemFiles;
  let running: RunningListener | undefined;
  let registry: Registry;
  let lines: Array<Record<string, unknown>>;
  let handled: number;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-client-names-"));
    ca = makeCa(dir, "hvx-ca");
    serving = makeSigned(dir, "hvx", ca);
    scheduler = makeSigned(dir, "hvx-scheduler", ca);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    registry = new Registry();
    lines = [];
    handled = 0;
    running = await startListener({
      name: "extender",
      portKey: "server.port",
      port: 0,
      host: "127.0.0.1",
      handler: (_req, res) => {
        handled += 1;
        res.end("hello");
      },
      tls: { certFile: serving.certFile, keyFile: serving.keyFile, clientCAFile: ca.certFile },
      allowedClientNames: ["hvx-scheduler"],
      tlsKey: "server.tls",
      log: createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
      handshakeMetrics: createTlsHandshakeMetrics(registry),
    });
  });
  afterEach(async () => {
    await running?.close(100);
    running = undefined;
  });

  const call = (client: PemFiles) =>
    rawRequest({
      port: running!.port,
      path: "/filter",
      body: "{}",
      tls: { ca: ca.cert, servername: "localhost", cert: client.cert, key: client.key },
      timeoutMs: 5000,
    }).then(
      (a) => `answered ${a.status}`,
      () => "refused",
    );
  const refusals = async () => {
    const m = await registry.getSingleMetric("hvx_tls_handshake_failures_total")!.get();
    return m.values.find((v) => v.labels.reason === "client_name_not_allowed")?.value;
  };

  it("given the listed client's certificate, answers", async () => {
    expect(await call(scheduler)).to.equal("answered 200");
    expect(await refusals()).to.equal(0);
  });

  it("given hvx's own serving certificate as a client certificate, twice, refuses both before any request, counts both, logs once with its names", async () => {
    expect(await call(serving)).to.equal("refused");
    expect(await call(serving)).to.equal("refused");
    expect(handled).to.equal(0);
    expect(await refusals()).to.equal(2);
    const logged = lines.filter((l) => l.reason === "client_name_not_allowed");
    expect(logged.map((l) => [l.level, l.listener, l.peer, l.names, l.suppressed])).to.deep.equal([
      [40, "extender", "127.0.0.1", ["localhost", "hvx.hvx-system.svc", "hvx"], 0],
    ]);
  });
});
