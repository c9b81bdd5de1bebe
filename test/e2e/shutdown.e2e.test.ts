import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { request, type ClientRequest } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";
import { rawRequest } from "../fixtures/raw-http.js";

const CLI = fileURLToPath(new URL("../../src/cli.js", import.meta.url));
const FILTER_BODY = JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["a", "b"] });

/** A POST /filter whose body is sent in two parts: the request is in flight in between. */
function halfSent(port: number): { req: ClientRequest; finish(): void; answer: Promise<{ status: number; body: string }> } {
  const body = Buffer.from(FILTER_BODY);
  const req = request({
    host: "127.0.0.1",
    port,
    path: "/filter",
    method: "POST",
    headers: { "Content-Type": "application/json", "Content-Length": String(body.length) },
    agent: false,
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
  });
  answer.catch(() => undefined);
  req.write(body.subarray(0, 10));
  return { req, finish: () => req.end(body.subarray(10)), answer };
}

/**
 * Issue 8 section 4: on SIGTERM, /readyz turns 503 at once, requests are still served for
 * server.shutdownDrainSeconds (each closing its connection), then the listeners close and
 * in-flight requests get at most 10 s more before the process exits.
 */
describe("hvx serve drains on SIGTERM (child process)", function () {
  this.timeout(60_000);
  let dir = "";
  let child: ChildProcess;
  let output = "";
  let exited: Promise<{ code: number | null; atMs: number }>;
  let port = 0;
  let adminPort = 0;
  let admissionPort = 0;

  before(async () => {
    [port, adminPort, admissionPort] = [await freePort(), await freePort(), await freePort()];
    dir = mkdtempSync(join(tmpdir(), "hvx-shutdown-"));
    const configPath = join(dir, "config.yaml");
    writeFileSync(
      configPath,
      [
        `server:\n  address: 127.0.0.1\n  port: ${port}\n  adminPort: ${adminPort}\n  shutdownDrainSeconds: 2`,
        "vcenter:\n  url: http://127.0.0.1:9\n  allowPlaintext: true\n  username: u\n  password: p",
        `admission:\n  port: ${admissionPort}`,
        "kubernetes:\n  enabled: false",
        "log:\n  level: info",
      ].join("\n"),
    );
    child = spawn(process.execPath, [CLI, "serve", "--config", configPath], {
      env: { ...process.env, KUBECONFIG: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    exited = new Promise((resolve) => child.once("exit", (code) => resolve({ code, atMs: Date.now() })));
    // The first poll fails at once (nothing listens on port 9): that ends it, so hvx is ready.
    await until(
      async () => ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 ? true : undefined),
      20_000,
      "hvx to be ready",
    );
  });

  after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("turns /readyz 503, serves during the drain, closes the listeners, lets an in-flight request finish, and exits 0 within drain + 10 s", async () => {
    const finishing = halfSent(port);
    const stuck = halfSent(port); // never finished: the 10 s cap ends it
    await new Promise((r) => setTimeout(r, 200));
    const sigtermAt = Date.now();
    child.kill("SIGTERM");

    for (const p of [port, adminPort]) {
      await until(
        async () => ((await fetch(`http://127.0.0.1:${p}/readyz`)).status === 503 ? true : undefined),
        1500,
        `/readyz 503 on ${p}`,
        50,
      );
    }
    expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).text()).to.equal("shutting down");
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status, "alive while draining").to.equal(200);

    const during = await rawRequest({
      port,
      path: "/filter",
      headers: { "Content-Type": "application/json", Connection: "keep-alive" },
      body: FILTER_BODY,
    });
    expect(during.status, "still served during the drain").to.equal(200);
    expect(during.headers.connection, "each answer closes its connection while draining").to.equal("close");
    expect(Date.now() - sigtermAt).to.be.below(1800);

    const refused = await until(
      () =>
        rawRequest({ port, path: "/filter", body: FILTER_BODY, timeoutMs: 1000 }).then(
          () => undefined,
          (e: NodeJS.ErrnoException) => (e.code === "ECONNREFUSED" ? Date.now() : undefined),
        ),
      8000,
      "the extender listener to close",
      100,
    );
    expect(refused - sigtermAt, "listeners close after server.shutdownDrainSeconds (2 s)").to.be.within(1900, 5000);
    for (const p of [adminPort, admissionPort]) {
      const code = await rawRequest({ port: p, path: "/healthz", method: "GET", timeoutMs: 1000 }).then(
        () => "answered",
        (e: NodeJS.ErrnoException) => e.code,
      );
      expect(code, `port ${p} closed too`).to.equal("ECONNREFUSED");
    }

    finishing.finish();
    const answer = await finishing.answer;
    expect(answer.status, "the in-flight request finishes after the listeners closed").to.equal(200);
    expect(JSON.parse(answer.body).NodeNames).to.deep.equal(["a", "b"]);

    const exit = await exited;
    expect(exit.code, output.slice(-2000)).to.equal(0);
    expect(exit.atMs - sigtermAt, "exit after drain (2 s) + in-flight cap (10 s)").to.be.within(11_000, 16_000);
    const stuckOutcome = await stuck.answer.then(
      () => "answered",
      () => "cut",
    );
    expect(stuckOutcome).to.equal("cut");
    expect(output).to.match(/shutting down: \/readyz answers 503/);
  });
});
