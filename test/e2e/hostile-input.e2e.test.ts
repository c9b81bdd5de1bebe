import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { until } from "../fixtures/eventually.js";
import { deploymentNodeOptions } from "../manifests/deployment-node-options.js";
import { freePort } from "../fixtures/net.js";
import { type RawAnswer, rawRequest } from "../fixtures/raw-http.js";

const CLI = fileURLToPath(new URL("../../src/cli.js", import.meta.url));
const MB = 1024 * 1024;

/** ExtenderArgs whose NodeNames repeat one name: 91 MB of JSON that gzip turns into 177 KB. */
function extenderArgsOfSize(bytes: number): Buffer {
  const head = '{"Pod":{"metadata":{"name":"p","namespace":"default"}},"Nodes":null,"NodeNames":[';
  const unit = '"k8s-worker-01",';
  return Buffer.from(head + unit.repeat(Math.floor((bytes - head.length - 5) / unit.length)) + '"x"]}');
}

/**
 * Issue 8 section 1: hostile or oversized bodies cannot hurt hvx. `hvx serve` runs as a child
 * process with the manifest's heap (its NODE_OPTIONS: --max-old-space-size=384); a prober calls /healthz every
 * 100 ms throughout. Before the fix the gzip bomb was inflated and parsed (and 40 bodies of
 * 20 MB were buffered at once), which ran the process out of heap.
 */
describe("hostile and oversized request bodies against hvx serve (child process, 384 MB heap)", function () {
  this.timeout(120_000);
  let dir = "";
  let child: ChildProcess;
  let output = "";
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let extenderPort = 0;
  let admissionPort = 0;
  let adminPort = 0;
  const probes: Array<{ ok: boolean; ms: number; error?: string }> = [];
  let probing = false;
  let prober: Promise<void> | undefined;

  const bomb = extenderArgsOfSize(91 * 1000 * 1000);
  const gzBomb = gzipSync(bomb, { level: 9 });

  before(async () => {
    extenderPort = await freePort();
    admissionPort = await freePort();
    adminPort = await freePort();
    dir = mkdtempSync(join(tmpdir(), "hvx-hostile-"));
    const configPath = join(dir, "config.yaml");
    writeFileSync(
      configPath,
      [
        `server:\n  address: 127.0.0.1\n  port: ${extenderPort}\n  adminPort: ${adminPort}`,
        // Nothing listens there: the poller fails and backs off; the extender answers anyway.
        "vcenter:\n  url: http://127.0.0.1:9\n  allowPlaintext: true\n  username: u\n  password: p",
        `admission:\n  port: ${admissionPort}`,
        "kubernetes:\n  enabled: false",
        "log:\n  level: warn",
      ].join("\n"),
    );
    child = spawn(process.execPath, [...deploymentNodeOptions(), CLI, "serve", "--config", configPath], {
      env: { ...process.env, KUBECONFIG: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output = (output + d).slice(-20_000)));
    child.stderr!.on("data", (d) => (output = (output + d).slice(-20_000)));
    child.once("exit", (code, signal) => (exit = { code, signal }));
    await until(
      async () => ((await fetch(`http://127.0.0.1:${extenderPort}/healthz`)).ok ? true : undefined),
      20_000,
      "hvx to answer /healthz",
    );
    probing = true;
    prober = (async () => {
      while (probing) {
        const t0 = Date.now();
        try {
          const res = await fetch(`http://127.0.0.1:${extenderPort}/healthz`, { signal: AbortSignal.timeout(5000) });
          probes.push({ ok: res.status === 200, ms: Date.now() - t0 });
        } catch (err) {
          probes.push({ ok: false, ms: Date.now() - t0, error: (err as Error).message });
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
  });

  after(async () => {
    probing = false;
    await prober;
    if (child && exit === undefined) {
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const alive = () => expect(exit, `hvx exited; last output:\n${output.slice(-3000)}`).to.equal(undefined);
  const statuses = (answers: RawAnswer[]) =>
    answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});

  it(`given a gzip bomb (${Math.round(gzBomb.length / 1000)} KB inflating to ${Math.round(bomb.length / 1e6)} MB), answers 415 on the extender and the admission port`, async () => {
    expect(gzBomb.length).to.be.within(150_000, 200_000);
    for (const [port, path] of [
      [extenderPort, "/filter"],
      [extenderPort, "/prioritize"],
      [admissionPort, "/mutate"],
    ] as const) {
      const a = await rawRequest({ port, path, headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" }, body: gzBomb });
      expect(a.status, path).to.equal(415);
      expect(JSON.parse(a.body).Error, path).to.match(/^hvx: Content-Encoding "gzip" is not accepted/);
    }
    alive();
  });

  it("given a 30 MB plain body, with a Content-Length or chunked, answers 413 on both ports", async () => {
    const body = extenderArgsOfSize(30 * MB);
    for (const [port, path] of [
      [extenderPort, "/filter"],
      [admissionPort, "/mutate"],
    ] as const) {
      const declared = await rawRequest({ port, path, headers: { "Content-Type": "application/json" }, body });
      expect(declared.status, `${path} with Content-Length`).to.equal(413);
      const chunked = await rawRequest({
        port,
        path,
        headers: { "Content-Type": "application/json" },
        stream: { chunk: body.subarray(0, 256 * 1024), totalBytes: 30 * MB },
      });
      expect(chunked.status, `${path} chunked`).to.equal(413);
      expect(chunked.sentBytes, `${path}: refused while streaming`).to.be.below(30 * MB);
    }
    alive();
  });

  it("given 40 concurrent 20 MB bodies, answers 413 to each", async () => {
    const body = extenderArgsOfSize(20 * MB);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        rawRequest({
          port: extenderPort,
          path: i % 2 === 0 ? "/filter" : "/prioritize",
          headers: { "Content-Type": "application/json" },
          body,
          timeoutMs: 60_000,
        }),
      ),
    );
    expect(statuses(answers)).to.deep.equal({ 413: 40 });
    alive();
  });

  it("given 40 concurrent chunked 20 MB bodies (no Content-Length), refuses each with 413, or 503 when the bodies in flight would exceed the budget", async () => {
    const chunk = extenderArgsOfSize(20 * MB).subarray(0, 256 * 1024);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        rawRequest({ port: extenderPort, path: "/filter", stream: { chunk, totalBytes: 20 * MB }, timeoutMs: 60_000 }),
      ),
    );
    const counts = statuses(answers);
    expect(
      Object.keys(counts).every((s) => s === "413" || s === "503"),
      JSON.stringify(counts),
    ).to.equal(true);
    alive();
  });

  it("given 40 concurrent 12 MB bodies under the limit, reads at most the budget at once (400 or 503 each) and stays up", async () => {
    const body = Buffer.alloc(12 * MB, 0x20);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => rawRequest({ port: extenderPort, path: "/filter", body, timeoutMs: 60_000 })),
    );
    const counts = statuses(answers);
    expect(
      Object.keys(counts).every((s) => s === "400" || s === "503"),
      JSON.stringify(counts),
    ).to.equal(true);
    alive();
  });

  it("answered /healthz throughout, and is alive and serving after", async () => {
    probing = false;
    await prober;
    alive();
    const failed = probes.filter((p) => !p.ok);
    expect(probes.length).to.be.greaterThan(5);
    expect(failed, JSON.stringify(failed.slice(0, 5))).to.deep.equal([]);
    const filter = await fetch(`http://127.0.0.1:${extenderPort}/filter`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["a"] }),
    });
    expect(filter.status).to.equal(200);
    expect(((await filter.json()) as { NodeNames: string[] }).NodeNames).to.deep.equal(["a"]);
    const metrics = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
    const refused = (port: string, reason: string) =>
      Number(new RegExp(`hvx_http_requests_refused_total\\{port="${port}",reason="${reason}"\\} (\\d+)`).exec(metrics)?.[1]);
    expect(refused("extender", "encoded")).to.equal(2);
    expect(refused("admission", "encoded")).to.equal(1);
    expect(refused("extender", "too_large")).to.be.at.least(42);
    expect(refused("admission", "too_large")).to.equal(2);
  });
});
