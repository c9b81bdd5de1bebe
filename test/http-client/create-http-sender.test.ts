import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { inspect } from "node:util";
import zlib from "node:zlib";
import { expect } from "chai";
import { createHttpSender, type HttpSender, type HttpSenderOptions } from "../../src/http-client/create-http-sender.js";
import { HttpExchangeError } from "../../src/http-client/http-exchange-error.js";
import { TEST_CERT_PEM, TEST_KEY_PEM } from "../vsphere/tls-fixture.js";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const base = { timeoutMs: 2000, insecureSkipTLSVerify: false, maxSockets: 4 };
const BODY = '{"returnval":[{"entity":"host-1","value":[1,2,3]}]}';

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe("createHttpSender", () => {
  let server: http.Server | https.Server | undefined;
  let sender: HttpSender | undefined;
  afterEach(async () => {
    sender?.close();
    sender = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
    }
    server = undefined;
  });

  async function serve(handler: Handler): Promise<URL> {
    server = http.createServer(handler);
    return new URL(`http://127.0.0.1:${await listen(server)}/sdk`);
  }
  function get(url: URL, options: Partial<HttpSenderOptions> = {}) {
    sender = createHttpSender({ ...base, ...options });
    return sender.send({ method: "GET", url, headers: { accept: "application/json" } });
  }

  // deflate is not asked for (its raw and zlib-wrapped forms are both in use), but a zlib-wrapped one sent anyway is decoded.
  const encodings: Array<{ name: string; encode: (body: Buffer) => Buffer }> = [
    { name: "gzip", encode: (b) => zlib.gzipSync(b) },
    { name: "deflate", encode: (b) => zlib.deflateSync(b) },
    { name: "br", encode: (b) => zlib.brotliCompressSync(b) },
  ];
  for (const c of encodings) {
    it(`given a ${c.name}-encoded reply, asks for gzip or br and returns the decoded text`, async () => {
      let asked = "";
      const url = await serve((req, res) => {
        asked = req.headers["accept-encoding"] ?? "";
        res.writeHead(200, { "content-encoding": c.name }).end(c.encode(Buffer.from(BODY)));
      });
      const reply = await get(url);
      expect(asked).to.equal("gzip, br");
      expect(reply.bodyText).to.equal(BODY);
    });
  }

  it("given a multi-byte character split across chunks, decodes it once from all the bytes", async () => {
    const bytes = Buffer.from('"Zürich-€"');
    const url = await serve((_req, res) => {
      res.writeHead(200);
      res.write(bytes.subarray(0, 3)); // '"Z' and the first byte of ü
      setTimeout(() => res.end(bytes.subarray(3)), 20);
    });
    expect((await get(url)).bodyText).to.equal('"Zürich-€"');
  });

  it("given a reply starting with a byte-order mark, drops the mark", async () => {
    const url = await serve((_req, res) => res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(BODY)])));
    expect((await get(url)).bodyText).to.equal(BODY);
  });

  it("given a redirect, returns it as the reply and does not follow it", async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? "");
      res.writeHead(302, { location: "/elsewhere" }).end();
    });
    const reply = await get(url);
    expect(reply.status).to.equal(302);
    expect(reply.headers.get("location")).to.equal("/elsewhere");
    expect(paths).to.deep.equal(["/sdk"]);
  });

  it("given repeated Set-Cookie headers, joins them by newlines under the lower-case name", async () => {
    const url = await serve((_req, res) => res.writeHead(200, { "Set-Cookie": ["a=1; Path=/", "b=2"], "X-Token": "t" }).end());
    const reply = await get(url);
    expect(reply.headers.get("set-cookie")).to.equal("a=1; Path=/\nb=2");
    expect(reply.headers.get("x-token")).to.equal("t");
  });

  it("given a body, sends it with its Content-Length", async () => {
    const seen: Array<{ length?: string; body: string }> = [];
    const url = await serve((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        seen.push({ length: req.headers["content-length"], body });
        res.end();
      });
    });
    sender = createHttpSender(base);
    await sender.send({ method: "POST", url, headers: {}, body: '{"name":"Zürich"}' });
    // 17 characters, 18 bytes: ü takes two in UTF-8.
    expect(seen).to.deep.equal([{ length: "18", body: '{"name":"Zürich"}' }]);
  });

  it("given headers at once and a body that trickles past the deadline, times out for the whole exchange", async () => {
    // A byte every 20 ms keeps the socket busy: an idle timeout alone would wait for ever.
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const drip = setInterval(() => res.write(" "), 20);
      res.on("close", () => clearInterval(drip));
    });
    const startedMs = Date.now();
    const err = await rejection(get(url, { timeoutMs: 150 }));
    expect(err).to.be.instanceOf(HttpExchangeError);
    expect(err).to.include({ code: "ETIMEDOUT", detail: "no answer within 150 ms" });
    expect(Date.now() - startedMs).to.be.below(1000);
  });

  describe("stale keep-alive sockets", () => {
    /** Answers the first request on each socket; a later one on the same socket finds it closed, as if the server had timed it out. */
    function closeReusedSockets(log: { requests: number; sockets: Set<Socket> }): Handler {
      return (req, res) => {
        log.requests += 1;
        if (log.sockets.has(req.socket)) {
          req.socket.destroy();
          return;
        }
        log.sockets.add(req.socket);
        res.end(BODY);
      };
    }

    it("given the server closed the pooled socket, sends the request once more on a fresh socket", async () => {
      const log = { requests: 0, sockets: new Set<Socket>() };
      const url = await serve(closeReusedSockets(log));
      sender = createHttpSender(base);
      await sender.send({ method: "GET", url, headers: {} });
      const reply = await sender.send({ method: "GET", url, headers: {} });
      expect(reply.bodyText).to.equal(BODY);
      expect(log).to.deep.include({ requests: 3 });
      expect(log.sockets.size).to.equal(2);
    });

    it("given a reset on a fresh socket, does not send the request again", async () => {
      let requests = 0;
      const url = await serve((req) => {
        requests += 1;
        req.socket.destroy();
      });
      const err = await rejection(get(url));
      expect(err).to.be.instanceOf(HttpExchangeError);
      expect((err as HttpExchangeError).code).to.equal("ECONNRESET");
      expect(requests).to.equal(1);
    });
  });

  it("given a body over the cap, fails naming the cap and still serves the next request", async () => {
    const url = await serve((req, res) => res.end(req.url === "/small" ? "{}" : "x".repeat(64 * 1024)));
    const err = await rejection(get(url, { maxBodyBytes: 1000 }));
    expect(err).to.be.instanceOf(HttpExchangeError);
    expect((err as Error).message).to.equal("ERR_BODY_TOO_LARGE (the reply body is over the 1000-byte cap)");
    const reply = await sender!.send({ method: "GET", url: new URL("/small", url), headers: {} });
    expect(reply.bodyText).to.equal("{}");
  });

  it("given a gzip bomb, stops at the cap of decoded bytes", async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    const url = await serve((_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(bomb));
    const err = await rejection(get(url, { maxBodyBytes: 1024 * 1024 }));
    expect(err).to.include({ code: "ERR_BODY_TOO_LARGE" });
  });

  const corrupt: Array<{ name: string; body: Buffer; code: string }> = [
    { name: "not gzip at all", body: Buffer.from("plain text, not gzip"), code: "Z_DATA_ERROR" },
    { name: "a truncated gzip stream", body: zlib.gzipSync(Buffer.from(BODY.repeat(50))).subarray(0, 40), code: "Z_BUF_ERROR" },
  ];
  for (const c of corrupt) {
    it(`given ${c.name} labelled gzip, fails with ${c.code} and a fixed detail`, async () => {
      const url = await serve((_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(c.body));
      const err = await rejection(get(url));
      expect(err).to.be.instanceOf(HttpExchangeError);
      expect(err).to.include({ code: c.code, detail: "the reply body could not be decompressed" });
    });
  }

  it("given a header value Node refuses, fails without sending and without echoing the value", async () => {
    let requests = 0;
    const url = await serve((_req, res) => {
      requests += 1;
      res.end();
    });
    sender = createHttpSender(base);
    const err = await rejection(sender.send({ method: "GET", url, headers: { authorization: "Basic c2VjcmV0\r\nx: y" } }));
    expect(err).to.be.instanceOf(HttpExchangeError);
    expect((err as HttpExchangeError).code).to.equal("ERR_INVALID_CHAR");
    expect(inspect(err, { showHidden: true, depth: 10 })).to.not.include("c2VjcmV0");
    expect(requests).to.equal(0);
  });

  describe("TLS", () => {
    async function serveTls(): Promise<URL> {
      server = https.createServer({ cert: TEST_CERT_PEM, key: TEST_KEY_PEM }, (_req, res) => res.end(BODY));
      return new URL(`https://127.0.0.1:${await listen(server)}/sdk`);
    }
    it("given the server's certificate as caPem, trusts it", async () => {
      const url = await serveTls();
      expect((await get(url, { caPem: TEST_CERT_PEM })).bodyText).to.equal(BODY);
    });
    it("given no CA for a self-signed certificate, fails with the certificate's code", async () => {
      const err = await rejection(get(await serveTls()));
      expect(err).to.include({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    });
  });
});
