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
const MAX_AGE_S = 25;

/** The value of `hvx_vcenter_polls_total{outcome="failure",...}` summed over error kinds: sample lines, never HELP/TYPE text. */
function failedPolls(metricsText: string): number {
  let total = 0;
  for (const line of metricsText.split("\n")) {
    const m = /^hvx_vcenter_polls_total\{([^}]*)\} (\S+)$/.exec(line);
    if (m && /(^|,)outcome="failure"(,|$)/.test(m[1]!)) total += Number(m[2]);
  }
  return total;
}

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
    mock = await startMockVcenter({
      scenario: { ...scenario, credentials: { username: "svc-hvx@vsphere.local", password: PASSWORD } } as typeof scenario,
    });
    const port = await freePort();
    const adminPort = await freePort();
    dir = mkdtempSync(join(tmpdir(), "hvx-e2e-"));
    const configPath = join(dir, "config.yaml");
    // maxMetricAgeSeconds: the mock's samples are on 20 s boundaries, so a fresh sample is up to
    // ~21 s old here (20 s + the 1 s poll interval); 25 s keeps live data fresh and lets the
    // outage test see the verdicts go stale within seconds instead of the default 120 s.
    writeFileSync(
      configPath,
      `server:\n  address: 127.0.0.1\n  port: ${port}\n  adminPort: ${adminPort}\nvcenter:\n  url: ${mock.url}\n  allowPlaintext: true\n  pollIntervalSeconds: 1\nthresholds:\n  maxMetricAgeSeconds: ${MAX_AGE_S}\nadmission:\n  enabled: false\nkubernetes:\n  enabled: false\nlog:\n  level: debug\n`,
    );
    writeFileSync(join(dir, "password"), `${PASSWORD}\n`);
    child = spawn(process.execPath, [CLI, "serve", "--config", configPath], {
      env: {
        ...process.env,
        HVX_VCENTER_USERNAME: "svc-hvx@vsphere.local",
        HVX_VCENTER_PASSWORD_FILE: join(dir, "password"),
        KUBECONFIG: "",
      },
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

  const post = (verb: string) =>
    fetch(`${base}/${verb}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: readFileSync(EXAMPLE) });

  it("/filter rejects the nodes of the hot, ballooning and swapping hosts with reasons, and passes the others", async () => {
    const body = await until(
      async () => {
        const b = (await (await post("filter")).json()) as { NodeNames: string[]; FailedAndUnresolvableNodes: Record<string, string> };
        return Object.keys(b.FailedAndUnresolvableNodes).length > 0 ? b : undefined;
      },
      20_000,
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
    // kube-scheduler's text: short, host-free, printf-safe (the host, value and age are in /debug/explain)
    expect(body.FailedAndUnresolvableNodes["k8s-worker-01"]).to.match(/^node\(s\) on hot ESXi hosts \(cpu ready\)/);
    expect(body.FailedAndUnresolvableNodes["k8s-worker-03"]).to.match(/^node\(s\) on hot ESXi hosts \(balloon\)/);
    expect(body.FailedAndUnresolvableNodes["k8s-worker-05"]).to.match(/^node\(s\) on hot ESXi hosts \([^)]*swap-in rate/);
    for (const reason of Object.values(body.FailedAndUnresolvableNodes)) expect(reason).not.to.include("%");
    expect(body.NodeNames).to.deep.equal(Array.from({ length: 13 }, (_, i) => `k8s-worker-${String(7 + i).padStart(2, "0")}`));
  });

  it("/prioritize ranks cool hosts above the warm one and hot ones at 0", async () => {
    const scores = Object.fromEntries(
      ((await (await post("prioritize")).json()) as Array<{ Host: string; Score: number }>).map((h) => [h.Host, h.Score]),
    );
    expect(scores["k8s-worker-01"]).to.equal(0);
    expect(scores["k8s-worker-07"]).to.be.within(1, 4);
    expect(scores["k8s-worker-09"]).to.be.above(scores["k8s-worker-07"]!);
    expect(Object.values(scores).every(Number.isInteger)).to.equal(true);
  });

  it("keeps answering when vCenter goes away: from the last good data, counting failed polls, until the data is too old to judge", async function () {
    this.timeout(MAX_AGE_S * 1000 + 30_000);
    const metrics = async () => (await fetch(`${admin}/metrics`)).text();
    const failedBefore = failedPolls(await metrics());
    await mock.close();
    mockClosed = true;
    const failedAfter = await until(
      async () => {
        const n = failedPolls(await metrics());
        return n > failedBefore ? n : undefined;
      },
      15_000,
      "a failed vCenter poll to be counted",
    );
    expect(failedAfter).to.be.greaterThan(failedBefore);

    // The same snapshot, a later clock: still judged from the last good data, and the
    // sample's age in the reason (explain's: kube-scheduler's text has no age) grows with the clock.
    const sampledAgo = (reason: string | undefined) => Number(/\(sampled (\d+)s ago\)/.exec(reason ?? "")?.[1]);
    const explained = async () => {
      const reply = (await (
        await fetch(`${admin}/debug/explain`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: readFileSync(EXAMPLE),
        })
      ).json()) as { nodes: Array<{ node: string; verdict: string; reasons: string[] }> };
      const worker = reply.nodes.find((n) => n.node === "k8s-worker-01")!;
      return worker.verdict === "reject" ? worker.reasons[0] : undefined;
    };
    const first = (await (await post("filter")).json()) as { FailedAndUnresolvableNodes: Record<string, string> };
    expect(first.FailedAndUnresolvableNodes["k8s-worker-01"]).to.match(/cpu ready/);
    const firstReason = await explained();
    expect(firstReason).to.match(/^ESXi host esx-01 \(host-11\): cpu ready/);
    const firstAge = sampledAgo(firstReason);
    expect(firstAge).to.be.at.most(MAX_AGE_S);
    const laterReason = await until(
      async () => {
        const reason = await explained();
        return reason === undefined || sampledAgo(reason) > firstAge ? { reason } : undefined;
      },
      5_000,
      "the sample age in the reason to grow",
      250,
    );
    if (laterReason.reason !== undefined) expect(sampledAgo(laterReason.reason)).to.be.greaterThan(firstAge);
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);

    // Past maxMetricAgeSeconds the verdicts are stale: no opinion (staleMetrics: pass), every node passes.
    const stale = await until(
      async () => {
        const b = (await (await post("filter")).json()) as { NodeNames: string[]; FailedAndUnresolvableNodes: Record<string, string> };
        return Object.keys(b.FailedAndUnresolvableNodes).length === 0 ? b : undefined;
      },
      MAX_AGE_S * 1000 + 10_000,
      "the verdicts to become stale",
      500,
    );
    expect(stale.NodeNames).to.have.length(19);
    expect(stale.NodeNames).to.include("k8s-worker-01");
    const scores = (await (await post("prioritize")).json()) as Array<{ Host: string; Score: number }>;
    expect(new Set(scores.map((h) => h.Score))).to.deep.equal(new Set([5]));
    expect((await fetch(`${base}/readyz`)).status).to.equal(200);
    expect((await fetch(`${admin}/readyz`)).status).to.equal(200);
    expect((await fetch(`${base}/metrics`)).status, "/metrics is on the admin port only").to.equal(404);
  });

  it("never writes the vCenter password or a session token to its output", async () => {
    expect(output.length).to.be.greaterThan(0);
    expect(output).not.to.include(PASSWORD);
    expect(output).not.to.match(/vmware-api-session-id"?\s*[:=]\s*"?[0-9a-f]{16,}/i);
  });
});
