import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";

const CLI = fileURLToPath(new URL("../../src/cli.js", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../examples/filter-nodenames.json", import.meta.url));
const PASSWORD = "e2e-Secret-pa55";

describe("hvx serve as a separate process (end to end)", function () {
  this.timeout(40_000);
  let mock: MockVcenterHandle;
  let mockClosed = false;
  let child: ChildProcess;
  let output = "";
  let base: string;
  let admin: string;
  const scenario = loadScenario(demoScenarioPath());

  let dir = "";

  before(async () => {
    mock = await startMockVcenter({ scenario: { ...scenario, credentials: { username: "svc-hvx@vsphere.local", password: PASSWORD } } as typeof scenario });
    const port = await freePort();
    const adminPort = await freePort();
    dir = mkdtempSync(join(tmpdir(), "hvx-e2e-"));
    const configPath = join(dir, "config.yaml");
    writeFileSync(configPath, `server:\n  port: ${port}\n  adminPort: ${adminPort}\nvcenter:\n  url: ${mock.url}\n  pollIntervalSeconds: 2\nadmission:\n  enabled: false\nkubernetes:\n  enabled: false\nlog:\n  level: debug\n`);
    writeFileSync(join(dir, "password"), `${PASSWORD}\n`);
    child = spawn(process.execPath, [CLI, "serve", "--config", configPath], {
      env: { ...process.env, HVX_VCENTER_USERNAME: "svc-hvx@vsphere.local", HVX_VCENTER_PASSWORD_FILE: join(dir, "password"), KUBECONFIG: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    base = `http://127.0.0.1:${port}`;
    admin = `http://127.0.0.1:${adminPort}`;
    await until(async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 15_000, "hvx to answer /healthz");
  });

  after(async () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    child?.kill("SIGTERM");
    await new Promise((r) => child?.once("exit", r));
    if (!mockClosed) await mock?.close();
  });

  const post = (verb: string) => fetch(`${base}/${verb}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: readFileSync(EXAMPLE) });

  it("/filter rejects the nodes of the hot, ballooning and swapping hosts with reasons, and passes the others", async () => {
    const body = await until(async () => {
      const b = (await (await post("filter")).json()) as { NodeNames: string[]; FailedAndUnresolvableNodes: Record<string, string> };
      return Object.keys(b.FailedAndUnresolvableNodes).length > 0 ? b : undefined;
    }, 20_000, "the first poll's rejections");
    expect(Object.keys(body.FailedAndUnresolvableNodes).sort()).to.deep.equal(["k8s-worker-01", "k8s-worker-02", "k8s-worker-03", "k8s-worker-04", "k8s-worker-05", "k8s-worker-06"]);
    expect(body.FailedAndUnresolvableNodes["k8s-worker-01"]).to.match(/^ESXi host esx-01 \(host-11\): cpu ready [\d.]+% >= 10% \(sampled \d+s ago\)/);
    expect(body.FailedAndUnresolvableNodes["k8s-worker-03"]).to.match(/esx-02 \(host-12\): balloon/);
    expect(body.FailedAndUnresolvableNodes["k8s-worker-05"]).to.match(/esx-03 \(host-13\): .*swap-in rate/);
    expect(body.NodeNames).to.deep.equal(Array.from({ length: 13 }, (_, i) => `k8s-worker-${String(7 + i).padStart(2, "0")}`));
  });

  it("/prioritize ranks cool hosts above the warm one and hot ones at 0", async () => {
    const scores = Object.fromEntries(((await (await post("prioritize")).json()) as Array<{ Host: string; Score: number }>).map((h) => [h.Host, h.Score]));
    expect(scores["k8s-worker-01"]).to.equal(0);
    expect(scores["k8s-worker-07"]).to.be.within(1, 4);
    expect(scores["k8s-worker-09"]).to.be.above(scores["k8s-worker-07"]!);
    expect(Object.values(scores).every(Number.isInteger)).to.equal(true);
  });

  it("keeps answering when vCenter goes away, from the last good data", async () => {
    await mock.close();
    mockClosed = true;
    await new Promise((r) => setTimeout(r, 2500));
    const res = await post("filter");
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { FailedAndUnresolvableNodes: Record<string, string> };
    expect(Object.keys(body.FailedAndUnresolvableNodes)).to.include("k8s-worker-01");
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);
    expect((await fetch(`${admin}/readyz`)).status).to.equal(200);
    const metrics = await (await fetch(`${admin}/metrics`)).text();
    expect(metrics).to.match(/hvx_vcenter_poll/);
    expect((await fetch(`${base}/metrics`)).status, "/metrics is on the admin port only").to.equal(404);
  });

  it("never writes the vCenter password or a session token to its output", async () => {
    expect(output.length).to.be.greaterThan(0);
    expect(output).not.to.include(PASSWORD);
    expect(output).not.to.match(/vmware-api-session-id"?\s*[:=]\s*"?[0-9a-f]{16,}/i);
  });
});
