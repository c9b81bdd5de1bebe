import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Registry } from "prom-client";
import { createLogger, silentLogger } from "../../src/observability/logger.js";
import { createTlsHandshakeMetrics } from "../../src/observability/tls-handshake-metrics.js";
import { type RunningListener, startListener } from "../../src/server/start-listener.js";

/** A self-signed localhost certificate valid `days` days, and its notAfter as openssl prints it (epoch ms). */
function selfSigned(dir: string, name: string, days: number): { certFile: string; keyFile: string; notAfterMs: number } {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  execFileSync(
    "/usr/bin/openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      String(days),
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  const enddate = execFileSync("/usr/bin/openssl", ["x509", "-noout", "-enddate"], { input: readFileSync(certFile), encoding: "utf8" });
  return { certFile, keyFile, notAfterMs: Date.parse(enddate.replace("notAfter=", "").trim()) };
}

describe("startListener certificateNotAfterMs", () => {
  let dir: string;
  let running: RunningListener | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-expiry-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await running?.close(100);
    running = undefined;
  });
  const start = (tls?: { certFile: string; keyFile: string }) =>
    startListener({
      name: "extender",
      portKey: "server.port",
      port: 0,
      host: "127.0.0.1",
      handler: (_q, r) => r.end("ok"),
      log: silentLogger(),
      certReloadIntervalMs: 60_000,
      ...(tls ? { tls } : {}),
    });

  it("given plain HTTP, is undefined", async () => {
    running = await start();
    expect(running.certificateNotAfterMs()).to.equal(undefined);
  });

  it("given TLS files, is the served certificate's notAfter, and follows a rotation", async () => {
    const short = selfSigned(dir, "short", 10);
    const long = selfSigned(dir, "long", 40);
    const live = { certFile: join(dir, "live.crt"), keyFile: join(dir, "live.key") };
    copyFileSync(short.certFile, live.certFile);
    copyFileSync(short.keyFile, live.keyFile);
    running = await start(live);
    expect(running.certificateNotAfterMs()).to.equal(short.notAfterMs);
    copyFileSync(long.keyFile, live.keyFile);
    copyFileSync(long.certFile, live.certFile);
    expect(await running.reloadCertificate()).to.equal(true);
    expect(running.certificateNotAfterMs()).to.equal(long.notAfterMs);
  });
});

/** Issue 28: a rotated certificate outside its validity window is refused; the old one keeps being served. */
describe("startListener certificate reload: validity", () => {
  let dir: string;
  let running: RunningListener | undefined;
  const DAY_MS = 86_400_000;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-validity-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await running?.close(100);
    running = undefined;
  });

  const cases: Array<{ name: string; offsetDays: number; problem: string }> = [
    // the new certificate is good for 40 days from now: 45 days on, it has expired
    {
      name: "given a rotated certificate already expired, keeps serving the old one, logs and counts expired once",
      offsetDays: 45,
      problem: "expired",
    },
    // one day back, the new certificate (issued now) is not valid yet
    {
      name: "given a rotated certificate not yet valid, keeps serving the old one, logs and counts not_yet_valid once",
      offsetDays: -1,
      problem: "not_yet_valid",
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const old = selfSigned(dir, `old${c.offsetDays}`, 400);
      const next = selfSigned(dir, `next${c.offsetDays}`, 40);
      const live = { certFile: join(dir, `live${c.offsetDays}.crt`), keyFile: join(dir, `live${c.offsetDays}.key`) };
      copyFileSync(old.certFile, live.certFile);
      copyFileSync(old.keyFile, live.keyFile);
      let nowMs = Date.now();
      const registry = new Registry();
      const lines: Array<Record<string, unknown>> = [];
      running = await startListener({
        name: "extender",
        portKey: "server.port",
        port: 0,
        host: "127.0.0.1",
        handler: (_q, r) => r.end("ok"),
        log: createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
        handshakeMetrics: createTlsHandshakeMetrics(registry),
        certReloadIntervalMs: 60_000,
        certClock: () => nowMs,
        tls: live,
        tlsKey: "server.tls",
      });
      copyFileSync(next.keyFile, live.keyFile);
      copyFileSync(next.certFile, live.certFile);
      nowMs += c.offsetDays * DAY_MS;
      expect(await running.reloadCertificate()).to.equal(false);
      expect(await running.reloadCertificate()).to.equal(false);
      expect(running.certificateNotAfterMs(), "still the old certificate").to.equal(old.notAfterMs);
      const refused = (await registry.getSingleMetric("hvx_tls_certificate_reloads_refused_total")!.get()).values;
      expect(refused.map((v) => [v.labels.listener, v.labels.problem, v.value])).to.deep.equal([["extender", c.problem, 1]]);
      expect(lines.filter((l) => /new TLS certificate not loaded/.test(String(l.msg))).map((l) => l.err)).to.deep.equal([
        `${live.certFile} is ${c.problem === "expired" ? "expired" : "not yet valid"}`,
      ]);
      nowMs = Date.now();
      expect(await running.reloadCertificate(), "once the clock is inside its window, it is served").to.equal(true);
      expect(running.certificateNotAfterMs()).to.equal(next.notAfterMs);
    });
});

describe("startListener certificate at start-up: validity", () => {
  let dir: string;
  let running: RunningListener | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-start-validity-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await running?.close(100);
    running = undefined;
  });

  const cases = [
    { name: "given an expired certificate, serves it and warns once, naming the key and the file", offsetDays: 45, word: "expired" },
    { name: "given a certificate not yet valid, serves it and warns once", offsetDays: -1, word: "not yet valid" },
    { name: "given a valid certificate, says nothing", offsetDays: 0, word: undefined },
  ];
  for (const c of cases)
    it(c.name, async () => {
      const cert = selfSigned(dir, `start${c.offsetDays}`, 40);
      const lines: Array<Record<string, unknown>> = [];
      running = await startListener({
        name: "extender",
        portKey: "server.port",
        port: 0,
        host: "127.0.0.1",
        handler: (_q, r) => r.end("ok"),
        log: createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
        certReloadIntervalMs: 60_000,
        certClock: () => Date.now() + c.offsetDays * 86_400_000,
        tls: cert,
        tlsKey: "server.tls",
      });
      expect(running.certificateNotAfterMs()).to.equal(cert.notAfterMs);
      const warned = lines.filter((l) => l.level === "warn" || l.level === 40).map((l) => String(l.msg));
      expect(warned).to.deep.equal(
        c.word
          ? [`server.tls: ${cert.certFile} is ${c.word}; clients refuse it until the file is replaced (it is reloaded when it changes)`]
          : [],
      );
    });
});
