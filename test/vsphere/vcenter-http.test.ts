import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { inspect } from "node:util";
import { gzipSync } from "node:zlib";
import { expect } from "chai";
import { VcenterConfigError } from "../../src/vsphere/vcenter-config-error.js";
import { createVcenterHttp } from "../../src/vsphere/vcenter-http.js";
import { VcenterNetworkError } from "../../src/vsphere/vcenter-network-error.js";
import { TEST_CERT_PEM, TEST_KEY_PEM } from "./tls-fixture.js";

const SECRET_BASIC = Buffer.from("administrator@vsphere.local:P@ssw0rd-never-leak").toString("base64");
const SECRET_TOKEN = "tok-7f3a9c-never-leak";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}
async function close(server: http.Server | https.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
function everythingIn(err: unknown): string {
  return inspect(err, { depth: 20, showHidden: true }) + JSON.stringify(err) + String(err);
}
const base = { timeoutMs: 2000, insecureSkipTLSVerify: false, maxConcurrency: 4 };

describe("createVcenterHttp", () => {
  let server: http.Server | https.Server | undefined;
  afterEach(async () => {
    if (server) await close(server);
    server = undefined;
  });

  async function serve(handler: Handler): Promise<string> {
    server = http.createServer(handler);
    return `http://127.0.0.1:${await listen(server)}`;
  }

  it("given repeated filter values, sends repeated query keys and returns any status as a response", async () => {
    let seenUrl = "";
    const url = await serve((req, res) => {
      seenUrl = req.url ?? "";
      res.writeHead(500, { "content-type": "application/json", "vmware-api-session-id": "abc" }).end('{"error_type":"ERROR"}');
    });
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: `${url}/` });
    const res = await send("automation", { method: "GET", path: "/api/vcenter/vm", query: { hosts: ["host-1", "host-2"] } });
    shut();
    expect(seenUrl).to.equal("/api/vcenter/vm?hosts=host-1&hosts=host-2");
    expect(res.status).to.equal(500);
    expect(res.header("vmware-api-session-id")).to.equal("abc");
    expect(res.bodyText).to.equal('{"error_type":"ERROR"}');
  });

  it("given a body, sends it as JSON with Content-Type: application/json; without one, sends no Content-Type", async () => {
    const seen: Array<{ method?: string; type?: string; body: string }> = [];
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        seen.push({ method: req.method, type: req.headers["content-type"], body });
        res.writeHead(200, { "content-type": "application/json" }).end("[]");
      });
    });
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url });
    await send("vijson", { method: "POST", path: "/sdk/vim25/8.0.1.0/PerformanceManager/PerfMgr/QueryPerf", body: { querySpec: [] } });
    await send("vijson", { method: "POST", path: "/sdk/vim25/8.0.1.0/ServiceInstance/ServiceInstance/CurrentTime" });
    shut();
    expect(seen[0]).to.deep.equal({ method: "POST", type: "application/json", body: '{"querySpec":[]}' });
    expect(seen[1]).to.deep.equal({ method: "POST", type: undefined, body: "" });
  });

  it("given a server that never answers, times out with an error holding no header or body", async () => {
    const url = await serve(() => undefined);
    const { send, close: shut } = createVcenterHttp({ ...base, timeoutMs: 150, baseUrl: url });
    const err = await send("vijson", {
      method: "POST",
      path: "/sdk/vim25/8.0.1.0/SessionManager/SessionManager/Login",
      headers: { Authorization: `Basic ${SECRET_BASIC}`, "vmware-api-session-id": SECRET_TOKEN },
      body: { userName: "administrator@vsphere.local", password: "P@ssw0rd-never-leak" },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    shut();
    expect(err).to.be.instanceOf(VcenterNetworkError);
    expect((err as Error).message).to.match(/no answer within 150 ms/);
    const text = everythingIn(err);
    for (const secret of [SECRET_BASIC, SECRET_TOKEN, "P@ssw0rd-never-leak"]) expect(text).to.not.include(secret);
  });

  it("given a closed port, fails with ECONNREFUSED and no secret", async () => {
    const url = await serve(() => undefined);
    await close(server!);
    server = undefined;
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url });
    const err = await send("automation", {
      method: "POST",
      path: "/api/session",
      headers: { Authorization: `Basic ${SECRET_BASIC}` },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    shut();
    expect(err).to.be.instanceOf(VcenterNetworkError);
    expect((err as VcenterNetworkError).code).to.equal("ECONNREFUSED");
    expect(everythingIn(err)).to.not.include(SECRET_BASIC);
  });

  it("given maxConcurrency 2, never has more than 2 requests in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const url = await serve((_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end("[]");
      }, 10);
    });
    const { send, close: shut } = createVcenterHttp({ ...base, maxConcurrency: 2, baseUrl: url });
    await Promise.all(Array.from({ length: 8 }, () => send("automation", { method: "GET", path: "/api/vcenter/host" })));
    shut();
    expect(peak).to.equal(2);
  });

  it("given a SOAP request, sends its XML with its Content-Type and Accept, and reads headers by any case", async () => {
    const seen: Array<{ type?: string; accept?: string; length?: string; body: string }> = [];
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        seen.push({ type: req.headers["content-type"], accept: req.headers.accept, length: req.headers["content-length"], body });
        res.writeHead(200, { "Set-Cookie": ["vmware_soap_session=abc; Path=/", "other=1"] }).end("<ok/>");
      });
    });
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url });
    const res = await send("soap", {
      method: "POST",
      path: "/sdk",
      headers: { Accept: "text/xml" },
      text: { contentType: "text/xml; charset=utf-8", body: "<RetrieveServiceContent/>" },
    });
    shut();
    expect(seen).to.deep.equal([{ type: "text/xml; charset=utf-8", accept: "text/xml", length: "25", body: "<RetrieveServiceContent/>" }]);
    expect(res.header("Set-Cookie")).to.equal("vmware_soap_session=abc; Path=/\nother=1");
  });

  it("given a gzip reply with a byte-order mark, returns the decoded text without the mark", async () => {
    const url = await serve((_req, res) =>
      res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(Buffer.from('\ufeff{"value":1}', "utf8"))),
    );
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url });
    const res = await send("vijson", { method: "GET", path: "/sdk/vim25/8.0.1.0/ServiceInstance/ServiceInstance/content" });
    shut();
    expect(res.bodyText).to.equal('{"value":1}');
  });

  it("given a redirect, returns it as the response without following it", async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? "");
      res.writeHead(301, { location: "/ui/" }).end();
    });
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url });
    const res = await send("automation", { method: "GET", path: "/api/session" });
    shut();
    expect(res.status).to.equal(301);
    expect(paths).to.deep.equal(["/api/session"]);
  });

  it("given a reply whose body trickles past the deadline, times out", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => res.write(" "), 20);
      res.on("close", () => clearInterval(drip));
    });
    const { send, close: shut } = createVcenterHttp({ ...base, timeoutMs: 150, baseUrl: url });
    const err = await send("vijson", { method: "POST", path: "/sdk/vim25/8.0.1.0/PerformanceManager/PerfMgr/QueryPerf", body: {} }).then(
      () => undefined,
      (e: unknown) => e,
    );
    shut();
    expect(err).to.be.instanceOf(VcenterNetworkError);
    expect((err as Error).message).to.equal(
      "vCenter vijson POST /sdk/vim25/8.0.1.0/PerformanceManager/PerfMgr/QueryPerf failed: ETIMEDOUT (no answer within 150 ms)",
    );
  });

  it("given a reset on a fresh socket, fails without sending the request twice", async () => {
    let requests = 0;
    const url = await serve((req) => {
      requests += 1;
      req.socket.destroy();
    });
    const outcomes: string[] = [];
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url, onRequest: (_api, o) => outcomes.push(o) });
    const err = await send("automation", { method: "GET", path: "/api/vcenter/host" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    shut();
    expect((err as VcenterNetworkError).code).to.equal("ECONNRESET");
    expect(requests).to.equal(1);
    expect(outcomes).to.deep.equal(["network_error"]);
  });

  it("given the server closed the pooled socket, the next request still gets its answer", async () => {
    const sockets = new Set<Socket>();
    let requests = 0;
    const url = await serve((req, res) => {
      requests += 1;
      if (sockets.has(req.socket)) return void req.socket.destroy();
      sockets.add(req.socket);
      res.end("[]");
    });
    const outcomes: string[] = [];
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url, onRequest: (_api, o) => outcomes.push(o) });
    await send("automation", { method: "GET", path: "/api/vcenter/host" });
    const res = await send("automation", { method: "GET", path: "/api/vcenter/host" });
    shut();
    expect(res.bodyText).to.equal("[]");
    expect(requests).to.equal(3);
    expect(outcomes).to.deep.equal(["ok", "ok"]);
  });

  it("given a reply over maxBodyBytes, fails with an error naming the cap", async () => {
    const url = await serve((_req, res) => res.end("x".repeat(5000)));
    const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: url, maxBodyBytes: 4096 });
    const err = await send("vijson", { method: "GET", path: "/sdk/vim25/8.0.1.0/ServiceInstance/ServiceInstance/content" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    shut();
    expect(err).to.be.instanceOf(VcenterNetworkError);
    expect((err as Error).message).to.match(/ERR_BODY_TOO_LARGE \(the reply body is over the 4096-byte cap\)/);
  });

  describe("TLS", () => {
    async function serveTls(): Promise<string> {
      server = https.createServer({ cert: TEST_CERT_PEM, key: TEST_KEY_PEM }, (_req, res) => res.end('"ok"'));
      return `https://127.0.0.1:${await listen(server)}`;
    }
    it("given a self-signed certificate and no CA, refuses the connection", async () => {
      const { send, close: shut } = createVcenterHttp({ ...base, baseUrl: await serveTls() });
      const err = await send("automation", { method: "GET", path: "/api/session" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      shut();
      expect(err).to.be.instanceOf(VcenterNetworkError);
      // DEPTH_ZERO_SELF_SIGNED_CERT: the error says what to set.
      expect((err as Error).message)
        .to.include("DEPTH_ZERO_SELF_SIGNED_CERT")
        .and.include("set vcenter.caFile");
    });
    it("given the certificate as caFile content, verifies and connects", async () => {
      const { send, close: shut } = createVcenterHttp({ ...base, caPem: TEST_CERT_PEM, baseUrl: await serveTls() });
      const res = await send("automation", { method: "GET", path: "/api/session" });
      shut();
      expect(res.bodyText).to.equal('"ok"');
    });
    it("given insecureSkipTLSVerify, connects without verifying", async () => {
      const { send, close: shut } = createVcenterHttp({ ...base, insecureSkipTLSVerify: true, baseUrl: await serveTls() });
      const res = await send("automation", { method: "GET", path: "/api/session" });
      shut();
      expect(res.status).to.equal(200);
    });
  });

  const badUrls: Array<{ name: string; url: string; want: RegExp }> = [
    { name: "credentials in the URL", url: "https://admin:pw@vc.example", want: /must not embed credentials/ },
    { name: "not a URL", url: "vc.example", want: /not a valid URL/ },
    { name: "another scheme", url: "ftp://vc.example", want: /must be https/ },
  ];
  for (const c of badUrls) {
    it(`given ${c.name}, throws a config error that does not echo the URL`, () => {
      let err: unknown;
      try {
        createVcenterHttp({ ...base, baseUrl: c.url });
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(VcenterConfigError);
      expect((err as Error).message)
        .to.match(c.want)
        .and.not.include("pw@");
    });
  }
});
