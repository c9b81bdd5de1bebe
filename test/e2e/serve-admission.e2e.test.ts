import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { demoCluster, sampleNamespace, startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";
import { makeCertFiles } from "../fixtures/tls.js";

const CLI = fileURLToPath(new URL("../../src/cli.js", import.meta.url));
const REVIEW = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../examples/admissionreview-pod-create.json", import.meta.url)), "utf8"),
) as {
  request: { uid: string; namespace: string; object: unknown };
};
/** Fresh samples are up to ~21 s old (the mock samples on 20 s boundaries); see serve.e2e.test.ts. */
const MAX_AGE_S = 25;

/**
 * Workers on esx-01 (hot: CPU ready), esx-05 and esx-06 (cool) only: 1 of the 3 hosts that
 * back the cluster's nodes is hot (33 %), against 3 of all 6 hosts (50 %, with esx-02's
 * balloon and esx-03's swapping). The webhook's hot-host brake (> 25 %) and its message
 * show which set it judged.
 */
const NODES = new Set(["k8s-worker-01", "k8s-worker-02", "k8s-worker-09", "k8s-worker-10", "k8s-worker-11", "k8s-worker-12"]);

interface Review {
  response: { uid: string; allowed: boolean; patch?: string; patchType?: string; warnings?: string[] };
}

/** The `hvx.io/oversell` annotation the patch adds (undefined when there is no patch). */
function oversellAnnotation(r: Review): string | undefined {
  if (!r.response.patch) return undefined;
  const ops = JSON.parse(Buffer.from(r.response.patch, "base64").toString("utf8")) as Array<{ op: string; path: string; value: unknown }>;
  for (const op of ops) {
    if (op.path === "/metadata/annotations/hvx.io~1oversell") return op.value as string;
    if (op.path === "/metadata/annotations" && typeof op.value === "object") return (op.value as Record<string, string>)["hvx.io/oversell"];
  }
  return undefined;
}

/**
 * `hvx serve` as a child process with everything on: the vCenter poller (mock vCenter),
 * the informers (fake API server) and the admission webhook over HTTPS. Drives the
 * composition root's admission wiring: the hosts backing the cluster's nodes, the hot-host
 * check on the live clock, and namespace labels from the informer.
 */
describe("hvx serve with the webhook, the informers and the poller on (end to end)", function () {
  this.timeout(40_000);
  let vcenter: MockVcenterHandle;
  let vcenterClosed = false;
  let kube: FakeKubeApiserver;
  let child: ChildProcess;
  let output = "";
  let base = "";
  let admissionPort = 0;
  let ca = "";
  let dir = "";
  const scenario = loadScenario(demoScenarioPath());

  before(async () => {
    vcenter = await startMockVcenter({ scenario });
    kube = await startFakeKubeApiserver();
    const cluster = demoCluster(scenario.vms, (vm) => NODES.has(vm.name));
    kube.controls.bulkLoad({
      ...cluster,
      namespaces: [...cluster.namespaces, sampleNamespace("payments", { "hvx.io/oversell-cpu": "3", "hvx.io/oversell-memory": "1.25" })],
    });
    dir = mkdtempSync(join(tmpdir(), "hvx-e2e-admission-"));
    const tls = makeCertFiles(dir, "webhook");
    ca = readFileSync(tls.certFile, "utf8");
    writeFileSync(join(dir, "kubeconfig"), kube.kubeconfigYaml());
    const port = await freePort();
    admissionPort = await freePort();
    const configPath = join(dir, "config.yaml");
    writeFileSync(
      configPath,
      [
        // A port of its own for the admin server too: the default (9090) may be held by anything else on the machine.
        `server: { address: 127.0.0.1, port: ${port}, adminPort: ${await freePort()} }`,
        `vcenter: { url: "${vcenter.url}", allowPlaintext: true, username: "${scenario.credentials.username}", password: "${scenario.credentials.password}", pollIntervalSeconds: 1 }`,
        `thresholds: { maxMetricAgeSeconds: ${MAX_AGE_S} }`,
        `kubernetes: { enabled: true, kubeconfig: "${join(dir, "kubeconfig")}" }`,
        // maxLabelRatio: the operator lets namespace labels go past cpuRatio 2 / memoryRatio 1.
        `admission: { enabled: true, port: ${admissionPort}, tls: { certFile: "${tls.certFile}", keyFile: "${tls.keyFile}" }, maxLabelRatio: { cpu: 3, memory: 1.5 } }`,
        "log: { level: debug }",
      ].join("\n"),
    );
    child = spawn(process.execPath, [CLI, "serve", "--config", configPath], {
      env: { ...process.env, KUBECONFIG: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    base = `http://127.0.0.1:${port}`;
    await until(async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined), 15_000, "hvx to answer /healthz");
  });

  after(async () => {
    child?.kill("SIGTERM");
    if (child && child.exitCode === null) await new Promise((r) => child.once("exit", r));
    if (!vcenterClosed) await vcenter?.close();
    await kube?.close().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** POST /mutate over HTTPS, trusting only the webhook's own certificate. */
  function mutate(): Promise<Review> {
    const body = JSON.stringify(REVIEW);
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          host: "127.0.0.1",
          port: admissionPort,
          path: "/mutate?timeout=10s",
          method: "POST",
          ca,
          agent: false,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            try {
              expect(res.statusCode).to.equal(200);
              resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Review);
            } catch (err) {
              reject(err as Error);
            }
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  /** Mutates until the annotation matches (the informers and the poller feed the webhook asynchronously). */
  const mutateUntil = (re: RegExp, what: string, timeoutMs = 15_000) =>
    until(
      async () => {
        const r = await mutate();
        return re.test(oversellAnnotation(r) ?? "") ? r : undefined;
      },
      timeoutMs,
      what,
      250,
    );

  const filter = async (names: string[]) => {
    const pod = {
      metadata: { name: "api-0", namespace: "payments", uid: "u-api-0" },
      spec: { containers: [{ name: "api", resources: { requests: { cpu: "250m", memory: "512Mi" } } }] },
    };
    const res = await fetch(`${base}/filter`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ Pod: pod, Nodes: null, NodeNames: names }),
    });
    return (await res.json()) as { NodeNames: string[]; FailedAndUnresolvableNodes: Record<string, string> };
  };

  it("oversells by the namespace's labels, and brakes CPU because 1 of the 3 hosts backing the nodes is hot", async () => {
    const r = await mutateUntil(/33% of hosts hot/, "the webhook to judge the hosts backing the informer's nodes");
    expect(r.response.uid).to.equal(REVIEW.request.uid);
    expect(r.response.allowed).to.equal(true);
    expect(r.response.patchType).to.equal("JSONPatch");
    expect(oversellAnnotation(r)).to.equal(
      "cpu=1,memory=1.25 (namespace label; cpu hot-host brake: 33% of hosts hot > 25%, memory stacked cap not binding)",
    );
    expect(r.response.warnings).to.include("hvx: cpu requests not scaled (hot-host brake: 33% of hosts hot > 25%)");
    expect(r.response.warnings!.some((w) => /^hvx: memory requests scaled by 1\/1\.25 \(namespace label ratio; /.test(w))).to.equal(true);
  });

  it("/filter on the same process rejects the hot host's node and passes a cool one", async () => {
    const r = await filter(["k8s-worker-01", "k8s-worker-09"]);
    expect(r.NodeNames).to.deep.equal(["k8s-worker-09"]);
    expect(r.FailedAndUnresolvableNodes["k8s-worker-01"]).to.match(/^node\(s\) on hot ESXi hosts \(cpu ready\)/);
  });

  it("follows a namespace label changed in the API server (through the informer)", async () => {
    kube.controls.upsertNamespace(sampleNamespace("payments", { "hvx.io/oversell-cpu": "3", "hvx.io/oversell-memory": "1.5" }));
    const r = await mutateUntil(/memory=1\.5 /, "the new memory ratio");
    expect(oversellAnnotation(r)).to.equal(
      "cpu=1,memory=1.5 (namespace label; cpu hot-host brake: 33% of hosts hot > 25%, memory stacked cap not binding)",
    );
  });

  it("lifts the CPU brake when the hot host cools, and applies it again when it heats up", async () => {
    for (const vm of ["vm-101", "vm-102"]) vcenter.controls.setVmMetric(vm, "readyPercent", 1);
    const cool = await mutateUntil(/^cpu=3,/, "the brake to lift");
    expect(oversellAnnotation(cool)).to.equal("cpu=3,memory=1.5 (namespace label; stacked cap not binding)");
    for (const vm of ["vm-101", "vm-102"]) vcenter.controls.setVmMetric(vm, "readyPercent", 14);
    await mutateUntil(/^cpu=1,.*33% of hosts hot/, "the brake to apply again");
  });

  it("when vCenter goes away, judges the data on the live clock: once it is too old, the brake holds from the last known data and /filter has no opinion", async function () {
    this.timeout(MAX_AGE_S * 1000 + 30_000);
    await vcenter.close();
    vcenterClosed = true;
    // Still braked from the last good data while it is fresh.
    expect(oversellAnnotation(await mutate())).to.match(/^cpu=1,/);
    // Stale on the live clock: the cap and the brake never fall away (issue 8 §3); they say where they come from.
    const r = await mutateUntil(/last known host data/, "the data to become stale", MAX_AGE_S * 1000 + 15_000);
    expect(oversellAnnotation(r)).to.match(
      /^cpu=1,memory=1\.5 \(namespace label; cpu hot-host brake: 33% of hosts hot > 25%, last known host data/,
    );
    const f = await filter(["k8s-worker-01", "k8s-worker-09"]);
    expect(f.NodeNames).to.deep.equal(["k8s-worker-01", "k8s-worker-09"]);
  });

  it("logs the webhook listening over TLS, and never the vCenter password", () => {
    expect(output).to.match(/admission webhook listening/);
    expect(output).to.match(/"tls":true/);
    expect(output).not.to.include(scenario.credentials.password);
  });
});
