import { expect } from "chai";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Registry } from "prom-client";
import { createLogger } from "../../src/observability/logger.js";
import { createTlsHandshakeMetrics, type TlsHandshakeFailureReason } from "../../src/observability/tls-handshake-metrics.js";
import { type RunningListener, startListener } from "../../src/server/start-listener.js";
import { classifyTlsHandshakeError } from "../../src/server/tls-handshake-errors.js";
import { makeCa, makeSigned, type PemFiles } from "../fixtures/certs.js";
import { rawRequest } from "../fixtures/raw-http.js";

describe("classifyTlsHandshakeError", () => {
  const cases: Array<{ name: string; code?: string; authorizationError?: string; want: TlsHandshakeFailureReason }> = [
    {
      name: "given no client certificate, returns no_client_certificate",
      code: "ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE",
      want: "no_client_certificate",
    },
    // Node destroys the socket after its own verify failure: the error is only a hang-up.
    {
      name: "given a client chain hvx cannot verify, returns unknown_ca",
      code: "ECONNRESET",
      authorizationError: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      want: "unknown_ca",
    },
    {
      name: "given a self-signed client certificate, returns unknown_ca",
      code: "ECONNRESET",
      authorizationError: "DEPTH_ZERO_SELF_SIGNED_CERT",
      want: "unknown_ca",
    },
    {
      name: "given an expired client certificate, returns bad_certificate",
      code: "ECONNRESET",
      authorizationError: "CERT_HAS_EXPIRED",
      want: "bad_certificate",
    },
    {
      name: "given the client's unknown-CA alert, returns server_certificate_refused",
      code: "ERR_SSL_TLSV1_ALERT_UNKNOWN_CA",
      want: "server_certificate_refused",
    },
    {
      name: "given the client's bad-certificate alert (wrong name), returns server_certificate_refused",
      code: "ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE",
      want: "server_certificate_refused",
    },
    {
      name: "given the client's bad-certificate alert as OpenSSL 3 (Node.js 24) names it, returns server_certificate_refused",
      code: "ERR_SSL_SSL/TLS_ALERT_BAD_CERTIFICATE",
      want: "server_certificate_refused",
    },
    {
      name: "given the client's certificate-expired alert, returns server_certificate_refused",
      code: "ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED",
      want: "server_certificate_refused",
    },
    { name: "given plain HTTP on the TLS port, returns plain_http", code: "ERR_SSL_HTTP_REQUEST", want: "plain_http" },
    { name: "given a hang-up mid-handshake, returns handshake_other", code: "ECONNRESET", want: "handshake_other" },
    { name: "given no shared protocol version, returns handshake_other", code: "ERR_SSL_UNSUPPORTED_PROTOCOL", want: "handshake_other" },
    { name: "given no code at all, returns handshake_other", want: "handshake_other" },
  ];
  for (const c of cases) it(c.name, () => expect(classifyTlsHandshakeError(c.code, c.authorizationError)).to.equal(c.want));
});

/** `openssl s_client` as a Go client behaves: it sends an alert when it refuses the server's certificate. */
function sClient(port: number, args: readonly string[]): Promise<void> {
  return new Promise((resolve) => {
    const child = execFile(
      "/usr/bin/openssl",
      ["s_client", "-connect", `127.0.0.1:${port}`, "-verify_return_error", ...args],
      { timeout: 10_000 },
      () => resolve(),
    );
    child.stdin?.end();
  });
}

describe("failed TLS handshakes on a listener (logged, rate-limited, counted)", () => {
  let dir: string;
  let ca: PemFiles;
  let otherCa: PemFiles;
  let client: PemFiles;
  let stranger: PemFiles;
  let running: RunningListener | undefined;
  let registry: Registry;
  let lines: Array<Record<string, unknown>>;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-handshake-"));
    ca = makeCa(dir, "hvx-ca");
    otherCa = makeCa(dir, "other-ca");
    client = makeSigned(dir, "kube-scheduler", ca);
    stranger = makeSigned(dir, "stranger", otherCa);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    registry = new Registry();
    lines = [];
    const server = makeSigned(dir, "server", ca);
    running = await startListener({
      name: "extender",
      portKey: "server.port",
      port: 0,
      host: "127.0.0.1",
      handler: (_req, res) => res.end("hello"),
      tls: { certFile: server.certFile, keyFile: server.keyFile, clientCAFile: ca.certFile },
      tlsKey: "server.tls",
      log: createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
      handshakeMetrics: createTlsHandshakeMetrics(registry),
    });
  });
  afterEach(async () => {
    await running?.close(100);
    running = undefined;
  });

  const counts = async (): Promise<Record<string, number>> => {
    const m = await registry.getSingleMetric("hvx_tls_handshake_failures_total")!.get();
    return Object.fromEntries(m.values.map((v) => [`${v.labels.listener as string}/${v.labels.reason as string}`, v.value]));
  };
  const nodeClient = (tls: Record<string, unknown>) =>
    rawRequest({
      port: running!.port,
      path: "/",
      method: "GET",
      tls: { ca: ca.cert, servername: "localhost", ...tls },
      timeoutMs: 5000,
    }).then(
      () => "answered",
      () => "failed",
    );
  /** The server sees the failure after the client does: wait until `total` failures are counted. */
  const counted = async (total: number): Promise<Record<string, number>> => {
    for (let i = 0; i < 200; i++) {
      const c = await counts();
      if (Object.values(c).reduce((a, b) => a + b, 0) >= total) return c;
      await new Promise((r) => setTimeout(r, 10));
    }
    return counts();
  };
  const handshakeLines = () => lines.filter((l) => l.msg === "TLS handshake failed on the extender port");

  it("given no client failure, every reason's series exists at 0", async () => {
    expect(await nodeClient({ cert: client.cert, key: client.key })).to.equal("answered");
    expect(await counts()).to.deep.equal({
      "extender/no_client_certificate": 0,
      "extender/unknown_ca": 0,
      "extender/bad_certificate": 0,
      "extender/server_certificate_refused": 0,
      "extender/plain_http": 0,
      "extender/client_name_not_allowed": 0,
      "extender/handshake_other": 0,
    });
    expect(handshakeLines()).to.deep.equal([]);
  });

  it("given a client without a certificate, twice, counts both and logs one line with the peer address and the reason", async () => {
    expect(await nodeClient({})).to.equal("failed");
    expect(await nodeClient({})).to.equal("failed");
    expect((await counted(2))["extender/no_client_certificate"]).to.equal(2);
    const logged = handshakeLines();
    expect(logged.map((l) => [l.level, l.listener, l.peer, l.reason, l.error, l.suppressed])).to.deep.equal([
      [40, "extender", "127.0.0.1", "no_client_certificate", "ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE", 0],
    ]);
    expect(logged[0]!.hint).to.match(/clientCAFile/);
  });

  it("given a client certificate of another CA, counts unknown_ca with the peer address", async () => {
    await nodeClient({ cert: stranger.cert, key: stranger.key });
    expect((await counted(1))["extender/unknown_ca"]).to.equal(1);
    expect(handshakeLines().map((l) => [l.peer, l.reason, l.error])).to.deep.equal([
      ["127.0.0.1", "unknown_ca", "UNABLE_TO_VERIFY_LEAF_SIGNATURE"],
    ]);
  });

  it("given a client that does not trust hvx's CA, or dials a name not in its certificate, counts server_certificate_refused", async () => {
    await sClient(running!.port, ["-CAfile", otherCa.certFile, "-cert", client.certFile, "-key", client.keyFile]);
    await sClient(running!.port, [
      "-CAfile",
      ca.certFile,
      "-verify_hostname",
      "hvx.elsewhere.svc",
      "-cert",
      client.certFile,
      "-key",
      client.keyFile,
    ]);
    expect((await counted(2))["extender/server_certificate_refused"]).to.equal(2);
    // One line: same reason, same peer, within the minute.
    expect(handshakeLines().map((l) => [l.peer, l.reason, l.error])).to.deep.equal([
      ["127.0.0.1", "server_certificate_refused", "ERR_SSL_TLSV1_ALERT_UNKNOWN_CA"],
    ]);
  });

  it("given plain HTTP on the TLS port, counts plain_http", async () => {
    await rawRequest({ port: running!.port, path: "/filter", body: "{}", timeoutMs: 5000 }).catch(() => undefined);
    expect((await counted(1))["extender/plain_http"]).to.equal(1);
    expect(handshakeLines().map((l) => l.reason)).to.deep.equal(["plain_http"]);
  });
});
