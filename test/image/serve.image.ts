import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify as toYaml } from "yaml";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";
import { hvxDeployment, podRunFromDeployment } from "./deployment.js";
import { IMAGE, PROJECT_ROOT, podRunUnavailable, skipUnless, startLikePod, type PodProcess } from "./image-fixture.js";

const CLI = join(PROJECT_ROOT, "dist/src/cli.js");
const EXAMPLE = join(PROJECT_ROOT, "examples/filter-nodenames.json");
/** The mock vCenter's demo credentials (hvx mock-vcenter prints them). */
const CREDENTIALS = { username: "administrator@vsphere.local\n", password: "hvx-demo\n" };

const DRAIN_SECONDS = 1;

function exitWithin(pod: PodProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | "timeout"> {
  return Promise.race([pod.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms))]);
}

/** `hvx mock-vcenter` outside the image (host network), demo scenario. */
async function startMock(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, "mock-vcenter", "--port", String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  await until(
    () => (/mock vCenter serving/.test(err) ? true : child.exitCode !== null ? Promise.reject(new Error(err)) : undefined),
    15_000,
    "the mock vCenter",
  );
  return { child, url: `http://127.0.0.1:${port}` };
}

function stopMock(mock: { child: ChildProcess } | undefined): Promise<void> {
  if (mock === undefined || mock.child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    mock.child.once("exit", () => r());
    mock.child.kill("SIGTERM");
  });
}

describe(`the image (${IMAGE}) run as manifests/base/deployment.yaml runs it (read-only root, uid 65532, emptyDir /tmp)`, function () {
  this.timeout(120_000);
  let dir = "";
  let mock: { child: ChildProcess; url: string } | undefined;
  let pod: PodProcess | undefined;
  let extender = "";
  let admin = "";

  before(async function () {
    skipUnless(this, podRunUnavailable());
    dir = mkdtempSync(join(tmpdir(), "hvx-image-serve-"));
    mock = await startMock();
    const extenderPort = await freePort();
    const adminPort = await freePort();
    // Published from the container: every interface, in plain HTTP as the operator's explicit choice.
    const server = { port: extenderPort, adminPort, shutdownDrainSeconds: DRAIN_SECONDS, allowPlaintext: true };
    const config = {
      server,
      vcenter: { url: mock.url, allowPlaintext: true, pollIntervalSeconds: 2 },
      admission: { enabled: false },
      kubernetes: { enabled: false },
      nodeLabels: { enabled: false },
    };
    pod = await startLikePod(podRunFromDeployment(dir, { config: { "config.yaml": toYaml(config) }, "vcenter-credentials": CREDENTIALS }));
    extender = `http://127.0.0.1:${extenderPort}`;
    admin = `http://127.0.0.1:${adminPort}`;
    await until(
      async () => {
        if (pod!.child.exitCode !== null) throw new Error(`hvx exited: ${pod!.output()}`);
        return (await fetch(`${extender}/healthz`)).ok ? true : undefined;
      },
      30_000,
      "hvx in the image to answer /healthz",
    );
  });

  after(async function () {
    await pod?.dispose();
    await stopMock(mock);
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (this.currentTest?.state === "failed" && pod) process.stdout.write(`hvx output:\n${pod.output()}\n`);
  });

  it("answers /filter with the nodes of the demo's hot hosts rejected", async () => {
    const body = await until(
      async () => {
        const res = await fetch(`${extender}/filter`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: readFileSync(EXAMPLE),
        });
        const b = (await res.json()) as { NodeNames: string[]; FailedAndUnresolvableNodes: Record<string, string> };
        return Object.keys(b.FailedAndUnresolvableNodes).length > 0 ? b : undefined;
      },
      30_000,
      "the first poll's rejections",
    );
    expect(Object.keys(body.FailedAndUnresolvableNodes).sort()).to.deep.equal([
      "k8s-worker-01",
      "k8s-worker-02",
      "k8s-worker-03",
      "k8s-worker-04",
      "k8s-worker-05",
      "k8s-worker-06",
    ]);
    expect(body.FailedAndUnresolvableNodes["k8s-worker-01"]).to.match(/^node\(s\) on hot ESXi hosts \(cpu ready/);
    expect(body.NodeNames).to.deep.equal(Array.from({ length: 13 }, (_, i) => `k8s-worker-${String(7 + i).padStart(2, "0")}`));
  });

  it("answers the Deployment's liveness and readiness probes", async () => {
    const { container } = hvxDeployment();
    for (const probe of [container.livenessProbe, container.readinessProbe]) {
      // The admin port: it stays plain HTTP when the extender port requires client certificates.
      expect(probe.httpGet.port, "probes use the admin port").to.equal("admin");
      expect((await fetch(`${admin}${probe.httpGet.path}`)).status, probe.httpGet.path).to.equal(200);
    }
  });

  it("answers /metrics on the admin port (server.adminPort)", async () => {
    const res = await fetch(`${admin}/metrics`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.match(/^hvx_/m);
  });

  it("runs as pid 1 of its namespace, uid/gid 65532, no capabilities, no_new_privs", () => {
    const status = readFileSync(`/proc/${pod!.pid}/status`, "utf8");
    const field = (name: string): string => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(status)?.[1]?.trim() ?? "";
    expect(field("NSpid").split(/\s+/).at(-1)).to.equal("1");
    expect(field("Uid").split(/\s+/)).to.deep.equal(["65532", "65532", "65532", "65532"]);
    expect(field("Gid").split(/\s+/)).to.deep.equal(["65532", "65532", "65532", "65532"]);
    expect(field("CapEff")).to.match(/^0+$/);
    expect(field("CapPrm")).to.match(/^0+$/);
    expect(field("NoNewPrivs")).to.equal("1");
  });

  it(`stops on SIGTERM within the drain period + 10 s (server.shutdownDrainSeconds: ${DRAIN_SECONDS}), exit code 0`, async () => {
    const limitMs = (DRAIN_SECONDS + 10) * 1000;
    const t0 = Date.now();
    process.kill(pod!.pid, "SIGTERM");
    const exit = await exitWithin(pod!, limitMs);
    expect(exit, `still running ${limitMs} ms after SIGTERM`).to.not.equal("timeout");
    expect(exit, pod!.output()).to.deep.equal({ code: 0, signal: null });
    expect(Date.now() - t0).to.be.below(limitMs);
    expect(pod!.output()).to.match(/shutting down/);
  });
});

describe(`the image (${IMAGE}): clear messages where the source tree is missing`, function () {
  this.timeout(60_000);
  let dir = "";

  before(function () {
    skipUnless(this, podRunUnavailable());
    dir = mkdtempSync(join(tmpdir(), "hvx-image-messages-"));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function runToEnd(name: string, args: string[] | undefined, config: object): Promise<{ code: number | null; output: string }> {
    const pod = await startLikePod(
      podRunFromDeployment(
        join(dir, name),
        { config: { "config.yaml": toYaml(config) }, "vcenter-credentials": CREDENTIALS },
        args ? { args } : {},
      ),
    );
    try {
      const exit = await exitWithin(pod, 30_000);
      expect(exit, `still running: ${pod.output()}`).to.not.equal("timeout");
      return { code: (exit as { code: number | null }).code, output: pod.output() };
    } finally {
      await pod.dispose();
    }
  }

  it("without vcenter.url, serve exits 1 saying that vcenter.url must be set (the demo's mocks are not in the image)", async () => {
    const { code, output } = await runToEnd("no-url", undefined, { kubernetes: { enabled: false }, admission: { enabled: false } });
    expect(code, output).to.equal(1);
    expect(output).to.include(
      "hvx: vcenter.url is not set and the bundled mocks are not installed here (production image): set vcenter.url",
    );
    expect(output).to.not.include("Cannot find module");
  });

  it("hvx mock-vcenter exits 1 saying the mock is not installed, not with Cannot find module", async () => {
    const { code, output } = await runToEnd("mock", ["mock-vcenter", "--port", String(await freePort())], {});
    expect(code, output).to.equal(1);
    expect(output).to.include("hvx: the mock vCenter is not installed here (production image, built without mocks/)");
    expect(output).to.not.include("Cannot find module");
  });
});
