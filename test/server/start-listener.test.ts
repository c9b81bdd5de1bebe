import { expect } from "chai";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { silentLogger } from "../../src/observability/logger.js";
import { type RunningListener, startListener } from "../../src/server/start-listener.js";
import { makeCa, makeSigned, type PemFiles } from "../fixtures/certs.js";
import { rawRequest } from "../fixtures/raw-http.js";

const hello = (_req: unknown, res: { end(text: string): void }) => res.end("hello");

describe("startListener", () => {
  let dir: string;
  let ca: PemFiles;
  let otherCa: PemFiles;
  let server: PemFiles;
  let client: PemFiles;
  let stranger: PemFiles;
  let running: RunningListener | undefined;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hvx-listener-"));
    ca = makeCa(dir, "hvx-ca");
    otherCa = makeCa(dir, "other-ca");
    server = makeSigned(dir, "server", ca);
    client = makeSigned(dir, "kube-scheduler", ca);
    stranger = makeSigned(dir, "stranger", otherCa);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await running?.close(100);
    running = undefined;
  });

  const start = (over: Partial<Parameters<typeof startListener>[0]> = {}) =>
    startListener({
      name: "extender",
      portKey: "server.port",
      port: 0,
      host: "127.0.0.1",
      handler: hello,
      log: silentLogger(),
      certReloadIntervalMs: 20,
      ...over,
    });
  const get = (port: number, tls: Record<string, unknown>) =>
    rawRequest({ port, path: "/healthz", method: "GET", tls: { ca: ca.cert, servername: "localhost", ...tls }, timeoutMs: 5000 });

  it("given server.tls without clientCAFile, serves HTTPS to any client", async () => {
    running = await start({ tls: { certFile: server.certFile, keyFile: server.keyFile }, tlsKey: "server.tls" });
    expect(running.tls).to.equal(true);
    expect((await get(running.port, {})).body).to.equal("hello");
  });

  describe("given server.tls.clientCAFile (mutual TLS, as kube-scheduler's extender tlsConfig)", () => {
    beforeEach(async () => {
      running = await start({
        tls: { certFile: server.certFile, keyFile: server.keyFile, clientCAFile: ca.certFile },
        tlsKey: "server.tls",
      });
    });

    it("refuses a client without a certificate", async () => {
      const outcome = await get(running!.port, {}).then(
        (a) => `answered ${a.status}`,
        (e: NodeJS.ErrnoException) => e.code ?? e.message,
      );
      expect(outcome).to.match(/CERTIFICATE_REQUIRED/);
    });

    it("refuses a client certificate signed by another CA", async () => {
      const outcome = await get(running!.port, { cert: stranger.cert, key: stranger.key }).then(
        (a) => `answered ${a.status}`,
        (e: NodeJS.ErrnoException) => e.code ?? e.message,
      );
      expect(outcome).to.match(/UNKNOWN_CA|ECONNRESET|socket hang up/i);
    });

    it("accepts a client certificate signed by the CA", async () => {
      const a = await get(running!.port, { cert: client.cert, key: client.key });
      expect([a.status, a.body]).to.deep.equal([200, "hello"]);
    });
  });

  it("given rotated server.tls files, serves the new certificate without restart (client CA reloaded too)", async () => {
    const live = { certFile: join(dir, "live.crt"), keyFile: join(dir, "live.key"), clientCAFile: join(dir, "live-ca.crt") };
    copyFileSync(server.certFile, live.certFile);
    copyFileSync(server.keyFile, live.keyFile);
    copyFileSync(ca.certFile, live.clientCAFile);
    running = await start({ tls: live, tlsKey: "server.tls" });
    const peer = async (clientCert: PemFiles, trust: PemFiles) =>
      new Promise<string>((resolve, reject) => {
        import("node:https").then(({ request: httpsRequest }) => {
          const req = httpsRequest(
            {
              host: "127.0.0.1",
              port: running!.port,
              path: "/",
              servername: "localhost",
              ca: trust.cert,
              cert: clientCert.cert,
              key: clientCert.key,
              agent: false,
            },
            (res) => {
              resolve((res.socket as TLSSocket).getPeerCertificate().subject.CN as string);
              res.resume();
            },
          );
          req.on("error", reject);
          req.end();
        }, reject);
      });
    expect(await peer(client, ca)).to.equal("server");

    // New server certificate from another CA, and the client CA becomes that CA.
    const next = makeSigned(dir, "server-2", otherCa);
    copyFileSync(next.keyFile, live.keyFile);
    copyFileSync(next.certFile, live.certFile);
    copyFileSync(otherCa.certFile, live.clientCAFile);
    await running.reloadCertificate(); // the reloader's own tick may have applied it first
    expect(await peer(stranger, otherCa)).to.equal("server-2");
    const old = await peer(client, otherCa).then(
      () => "accepted",
      () => "refused",
    );
    expect(old, "a client certificate of the old CA").to.equal("refused");
  });

  it("given unreadable TLS files, refuses to start naming the config key", async () => {
    const err = await start({ tls: { certFile: join(dir, "none.crt"), keyFile: server.keyFile }, tlsKey: "server.tls" }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).to.equal(`server.tls.certFile: cannot read ${join(dir, "none.crt")} (ENOENT)`);
    const ca = await start({
      tls: { certFile: server.certFile, keyFile: server.keyFile, clientCAFile: server.keyFile },
      tlsKey: "server.tls",
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(ca?.message).to.match(/^server\.tls\.clientCAFile: .* holds no PEM certificate/);
  });

  it("given a port in use, refuses to start naming the config key and how to change it", async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", () => r()));
    const port = (busy.address() as AddressInfo).port;
    const err = await start({ port, portKey: "server.adminPort" }).then(
      () => undefined,
      (e: Error) => e,
    );
    busy.close();
    expect(err?.message).to.equal(
      `cannot listen on 127.0.0.1 port ${port} (server.adminPort): EADDRINUSE (another process holds it): ` +
        "set server.adminPort to a free port in a config file and start with `npm start -- --config FILE` (hvx serve --config FILE)",
    );
  });

  it("given an address this machine does not have, refuses to start naming the address and port keys", async () => {
    // 192.0.2.1: TEST-NET-1 (RFC 5737), never a local address.
    const err = await start({ host: "192.0.2.1", hostKey: "server.address" }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).to.equal("cannot listen on 192.0.2.1 port 0 (server.address, server.port): EADDRNOTAVAIL");
  });

  it("after drain(), every response closes its connection; close() lets an in-flight request finish and refuses new ones", async () => {
    running = await start({
      handler: (req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => res.end(`got ${Buffer.concat(chunks).length}`));
      },
    });
    const port = running.port;
    running.drain();
    const drained = await rawRequest({ port, path: "/", body: "abc" });
    expect([drained.body, drained.headers.connection]).to.deep.equal(["got 3", "close"]);

    // In flight: headers and half the body sent before close().
    const inFlight = request({ host: "127.0.0.1", port, path: "/", method: "POST", headers: { "Content-Length": "10" }, agent: false });
    const answer = new Promise<string>((resolve, reject) => {
      inFlight.on("response", (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve(text));
      });
      inFlight.on("error", reject);
    });
    inFlight.write("12345");
    await new Promise((r) => setTimeout(r, 100));
    const closed = running.close(5000);
    running = undefined;
    await new Promise((r) => setTimeout(r, 100));
    const refused = await rawRequest({ port, path: "/", body: "x", timeoutMs: 2000 }).then(
      () => "answered",
      (e: NodeJS.ErrnoException) => e.code,
    );
    expect(refused).to.equal("ECONNREFUSED");
    inFlight.end("67890");
    expect(await answer).to.equal("got 10");
    await closed;
  });

  it("close(grace) ends a request that never finishes once the grace is over", async () => {
    running = await start({ handler: () => undefined });
    const port = running.port;
    const stuck = request({ host: "127.0.0.1", port, path: "/", method: "POST", headers: { "Content-Length": "10" }, agent: false });
    const ended = new Promise<string>((resolve) => stuck.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message)));
    stuck.write("1");
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await running.close(300);
    running = undefined;
    expect(Date.now() - t0).to.be.within(250, 2000);
    expect(await ended).to.match(/ECONNRESET|socket hang up/);
  });
});
