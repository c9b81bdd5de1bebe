import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify as toYaml } from "yaml";
import { demoCluster, sampleNode, startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";

const CLI = fileURLToPath(new URL("../../src/cli.js", import.meta.url));

/** An exec credential plugin (as EKS, GKE and AKS kubeconfigs use) that fails while its state file says so. */
const PLUGIN = `
import { readFileSync } from "node:fs";
if (readFileSync(process.argv[2], "utf8").trim() !== "ok") {
  process.stderr.write("credential plugin: token expired, re-authentication needed");
  process.exit(1);
}
process.stdout.write(JSON.stringify({ apiVersion: "client.authentication.k8s.io/v1", kind: "ExecCredential", status: { token: "fake-token", expirationTimestamp: "2000-01-01T00:00:00Z" } }));
`;

/**
 * Issue 8 section 4: a credential failure when a watch reconnects ended in an unhandled
 * rejection, which exits the process. Runs `hvx serve` in a child process (Node's default
 * unhandled-rejection mode, not mocha's), against the mock vCenter and the fake API server.
 */
describe("hvx serve when its watch credentials start failing (child process)", function () {
  this.timeout(120_000);
  let vcenter: MockVcenterHandle;
  let kube: FakeKubeApiserver;
  let child: ChildProcess | undefined;
  let dir = "";
  let port = 0;
  let output = "";
  const scenario = loadScenario(demoScenarioPath());
  const pod = {
    metadata: { name: "api-0", namespace: "shop", uid: "u-api-0" },
    spec: { containers: [{ name: "api", resources: { requests: { cpu: "500m" } } }] },
  };

  const filter = async (): Promise<number> => {
    const res = await fetch(`http://127.0.0.1:${port}/filter`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ Pod: pod, Nodes: null, NodeNames: ["k8s-worker-05", "k8s-worker-09"] }),
    });
    await res.arrayBuffer();
    return res.status;
  };

  before(async () => {
    vcenter = await startMockVcenter({ scenario });
    kube = await startFakeKubeApiserver({ bookmarkIntervalMs: 200 });
    kube.controls.bulkLoad(demoCluster(scenario.vms));
    dir = mkdtempSync(join(tmpdir(), "hvx-creds-"));
    writeFileSync(join(dir, "plugin.mjs"), PLUGIN);
    writeFileSync(join(dir, "state"), "ok");
    writeFileSync(
      join(dir, "kubeconfig"),
      toYaml({
        apiVersion: "v1",
        kind: "Config",
        clusters: [{ name: "fake", cluster: { server: kube.url, "insecure-skip-tls-verify": true } }],
        users: [
          {
            name: "hvx",
            user: {
              exec: {
                apiVersion: "client.authentication.k8s.io/v1",
                command: process.execPath,
                args: [join(dir, "plugin.mjs"), join(dir, "state")],
                interactiveMode: "Never",
              },
            },
          },
        ],
        contexts: [{ name: "fake", context: { cluster: "fake", user: "hvx", namespace: "hvx-system" } }],
        "current-context": "fake",
      }),
    );
    port = await freePort();
    writeFileSync(
      join(dir, "config.yaml"),
      toYaml({
        // A port of its own for the admin server too: the default (9090) may be held by anything else on the machine.
        server: { address: "127.0.0.1", port, adminPort: await freePort() },
        vcenter: {
          url: vcenter.url,
          allowPlaintext: true,
          username: scenario.credentials.username,
          password: scenario.credentials.password,
          pollIntervalSeconds: 1,
        },
        kubernetes: { enabled: true, kubeconfig: join(dir, "kubeconfig") },
        admission: { enabled: false },
        log: { level: "warn" },
      }),
    );
    const env = { ...process.env };
    delete env.KUBECONFIG;
    delete env.KUBERNETES_SERVICE_HOST;
    child = spawn(process.execPath, [CLI, "serve", "--config", join(dir, "config.yaml")], { env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (d: Buffer) => void (output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => void (output += d.toString()));
    await until(async () => ((await filter()) === 200 ? true : undefined), 60_000, "hvx to answer").catch((err: Error) => {
      throw new Error(`hvx did not answer (exit code ${child?.exitCode}): ${err.message}; its output:\n${output}`);
    });
    await until(() => (kube.controls.stats().watchesOpen === 3 ? true : undefined), 20_000, "hvx's three watches");
  });

  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    await kube?.close();
    await vcenter?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps answering the extender while the watches cannot reconnect, logs the failure, and recovers when the credentials work again", async () => {
    writeFileSync(join(dir, "state"), "expired");
    kube.controls.dropWatches();
    const statuses: number[] = [];
    const until2s = Date.now() + 2_500;
    while (Date.now() < until2s) {
      statuses.push(await filter().catch(() => 0));
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(child?.exitCode, `hvx exited; its output:\n${output}`).to.equal(null);
    expect(
      statuses.every((s) => s === 200),
      `answers: ${statuses.join(",")}`,
    ).to.equal(true);
    expect(kube.controls.stats().watchesOpen, "no watch could reconnect").to.equal(0);
    await until(() => (output.includes("token expired") ? true : undefined), 15_000, "the failure in hvx's log");
    expect(child?.exitCode, `hvx exited; its output:\n${output}`).to.equal(null);
    expect(output).to.not.contain("unhandled promise rejection");

    writeFileSync(join(dir, "state"), "ok");
    await until(() => (kube.controls.stats().watchesOpen === 3 ? true : undefined), 20_000, "the watches to come back");
    kube.controls.upsertNode(sampleNode({ name: "late-node" }));
    expect(await filter()).to.equal(200);
  });
});
