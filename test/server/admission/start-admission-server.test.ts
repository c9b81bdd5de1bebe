import { fleetView } from "../../../src/oversell/fleet-view.js";
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { Registry } from "prom-client";
import { configSchema } from "../../../src/config/schema.js";
import { silentLogger } from "../../../src/observability/logger.js";
import { createTlsHandshakeMetrics } from "../../../src/observability/tls-handshake-metrics.js";
import { type RunningAdmissionServer, startAdmissionServer } from "../../../src/server/admission/start-admission-server.js";
import { gzipSync } from "node:zlib";
import { host } from "../../oversell/fixtures.js";
import { rawRequest } from "../../fixtures/raw-http.js";

const EXAMPLES = new URL("../../../../test/oversell/examples/", import.meta.url);
const requestText = readFileSync(new URL("admissionreview-request-pod-create.json", EXAMPLES), "utf8");

/** A self-signed P-256 certificate for 127.0.0.1 made with the openssl CLI. */
function makeCert(dir: string, cn: string): { cert: string; key: string } {
  const keyFile = join(dir, `${cn}.key`);
  const certFile = join(dir, `${cn}.crt`);
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
      "1",
      "-subj",
      `/CN=${cn}`,
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:hvx.hvx-system.svc",
    ],
    { stdio: "ignore" },
  );
  return { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
}

interface Answer {
  status: number;
  body: string;
  peerCn?: string;
}

function post(port: number, opts: { tls?: { ca: string }; path?: string; method?: string; body?: string | Buffer }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = {
      host: "127.0.0.1",
      port,
      path: opts.path ?? "/mutate?timeout=10s",
      method: opts.method ?? "POST",
      headers: { "Content-Type": "application/json" },
      agent: false as const,
    };
    const req = opts.tls ? httpsRequest({ ...options, ca: opts.tls.ca }) : httpRequest(options);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      const peer = opts.tls ? (res.socket as TLSSocket).getPeerCertificate() : undefined;
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), peerCn: peer?.subject?.CN as string | undefined }),
      );
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const admission = (over: Record<string, unknown> = {}) => configSchema.parse({ admission: over }).admission;

describe("startAdmissionServer", () => {
  let dir: string;
  let server: RunningAdmissionServer | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-admission-"));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const deps = (config: ReturnType<typeof admission>) => ({
    config,
    ownNamespace: "hvx-system",
    fleet: () => fleetView([host({ id: "host-1", vcpuPerPcpu: 1.6 })], () => false),
    log: silentLogger(),
    registry: new Registry(),
    port: 0,
    host: "127.0.0.1",
    certReloadIntervalMs: 20,
  });

  /** Two certificates; the server starts on the first, from `tls.crt` / `tls.key` in `dir`. */
  async function serveFirstOfTwoCerts() {
    const first = makeCert(dir, "first");
    const second = makeCert(dir, "second");
    const certFile = join(dir, "tls.crt");
    const keyFile = join(dir, "tls.key");
    writeFileSync(certFile, first.cert);
    writeFileSync(keyFile, first.key);
    server = await startAdmissionServer(deps(admission({ tls: { certFile, keyFile } })));
    return { first, second, certFile, keyFile, running: server };
  }

  it("serves /mutate over HTTPS and, after the certificate files are replaced, serves the new certificate without restart", async () => {
    const { first, second, certFile, keyFile, running } = await serveFirstOfTwoCerts();

    const before = await post(running.port, { tls: { ca: first.cert }, body: requestText });
    expect(before.status).to.equal(200);
    expect(before.peerCn).to.equal("first");
    expect(JSON.parse(before.body).response.patchType).to.equal("JSONPatch");

    // Atomic swap, as the kubelet does for Secret volumes (write new files, rename over).
    writeFileSync(`${certFile}.new`, second.cert);
    writeFileSync(`${keyFile}.new`, second.key);
    renameSync(`${keyFile}.new`, keyFile);
    renameSync(`${certFile}.new`, certFile);

    // The reload timer runs every 20 ms; poll until the new certificate is served (bounded).
    let after: Answer | undefined;
    for (let i = 0; i < 100 && after?.peerCn !== "second"; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await post(running.port, { tls: { ca: second.cert }, body: requestText }).catch(() => undefined);
    }
    expect(after?.peerCn).to.equal("second");
    expect(after?.status).to.equal(200);
    // The old certificate is no longer trusted by a client pinned to it.
    const old = await post(running.port, { tls: { ca: first.cert }, body: requestText }).then(
      () => "accepted",
      (e: Error) => e.message,
    );
    expect(old).to.not.equal("accepted");
  });

  it("given plain HTTP on the HTTPS webhook port, counts it as plain_http on the admission listener", async () => {
    const { certFile, keyFile } = await serveFirstOfTwoCerts();
    await server!.close();
    const registry = new Registry();
    server = await startAdmissionServer({
      ...deps(admission({ tls: { certFile, keyFile } })),
      registry,
      handshakeMetrics: createTlsHandshakeMetrics(registry),
    });
    await rawRequest({ port: server.port, path: "/mutate", body: requestText, timeoutMs: 5000 }).catch(() => undefined);
    const count = async () =>
      (await registry.getSingleMetric("hvx_tls_handshake_failures_total")!.get()).values.find(
        (v) => v.labels.listener === "admission" && v.labels.reason === "plain_http",
      )?.value;
    for (let i = 0; i < 200 && (await count()) !== 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await count()).to.equal(1);
  });

  it("given admission.address, listens there (the test's host override aside)", async () => {
    const { host: _host, ...rest } = deps(admission({ address: "127.0.0.2" }));
    server = await startAdmissionServer(rest);
    const answer = (ip: string) =>
      new Promise<string>((resolve) => {
        const req = httpRequest({ host: ip, port: server!.port, path: "/mutate", method: "POST", agent: false }, (res) => {
          res.resume();
          resolve("answered");
        });
        req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        req.end("{}");
      });
    expect(await answer("127.0.0.2")).to.equal("answered");
    expect(await answer("127.0.0.1")).to.equal("ECONNREFUSED");
  });

  it("keeps serving the old certificate when the new files do not form a valid pair", async () => {
    const { first, second, certFile, running } = await serveFirstOfTwoCerts();
    writeFileSync(certFile, second.cert); // key still the first one: mismatch
    expect(await running.reloadCertificate()).to.equal(false);
    expect((await post(running.port, { tls: { ca: first.cert }, body: requestText })).peerCn).to.equal("first");
  });

  it("takes its body limit from admission.bodyLimitMB (default 3, the API server's own limit)", async () => {
    expect(admission().bodyLimitMB).to.equal(3);
    server = await startAdmissionServer(deps(admission({ bodyLimitMB: 0.5 })));
    const port = server.port;
    expect((await post(port, { body: Buffer.alloc(600 * 1024, 0x20) })).status).to.equal(413);
    expect((await post(port, { body: Buffer.alloc(400 * 1024, 0x20) })).status).to.equal(400);
  });

  it("refuses to start when the TLS files are missing", async () => {
    const err = await startAdmissionServer(deps(admission({ tls: { certFile: join(dir, "no.crt"), keyFile: join(dir, "no.key") } }))).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).to.equal(`admission.tls.certFile: cannot read ${join(dir, "no.crt")} (ENOENT)`);
  });

  describe("over plain HTTP (no admission.tls)", () => {
    beforeEach(async () => {
      server = await startAdmissionServer({ ...deps(admission()), bodyLimitBytes: 64 * 1024 });
    });
    const port = () => (server as RunningAdmissionServer).port;

    it("given a pod CREATE, answers 200 with a patch", async () => {
      const a = await post(port(), { body: requestText });
      expect(a.status).to.equal(200);
      expect(JSON.parse(a.body).response.uid).to.equal("9b2f4c1e-6a3d-4f0b-8e2a-1c7d5e9f3a41");
    });
    it("given a malformed body, answers 400 with a clear message", async () => {
      const a = await post(port(), { body: '{"kind":"AdmissionReview"}' });
      expect(a.status).to.equal(400);
      expect(a.body).to.match(/malformed AdmissionReview: apiVersion must be/);
    });
    it("given a body over the limit, answers 413 with a JSON Error naming admission.bodyLimitMB", async () => {
      const a = await post(port(), { body: Buffer.alloc(100 * 1024, 0x20) });
      expect(a.status).to.equal(413);
      expect(JSON.parse(a.body).Error).to.match(/^hvx: request body larger than .* MB \(admission\.bodyLimitMB\)$/);
    });
    it("given a chunked body that grows past the limit, answers 413 while it is still streaming", async () => {
      const a = await rawRequest({
        port: port(),
        path: "/mutate",
        stream: { chunk: Buffer.alloc(16 * 1024, 0x20), totalBytes: 100 * 1024 * 1024 },
      });
      expect(a.status).to.equal(413);
      expect(a.sentBytes).to.be.below(20 * 1024 * 1024);
    });
    for (const path of ["/mutate", "/other"]) {
      it(`given Content-Encoding: gzip on ${path}, answers 415 with a JSON Error and never inflates`, async () => {
        const a = await rawRequest({
          port: port(),
          path,
          headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
          body: gzipSync(requestText),
        });
        expect(a.status).to.equal(415);
        expect(JSON.parse(a.body).Error).to.match(/^hvx: Content-Encoding "gzip" is not accepted/);
      });
    }
    it("given another path, answers 404 naming the webhook path", async () => {
      const a = await post(port(), { path: "/mutate/pods", body: requestText });
      expect([a.status, a.body]).to.deep.equal([404, "no route /mutate/pods; the webhook path is /mutate\n"]);
    });
    it("given GET, answers 405", async () => {
      expect((await post(port(), { method: "GET" })).status).to.equal(405);
    });
  });
});
