import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "../../src/observability/logger.js";
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
