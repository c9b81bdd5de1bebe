import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoCluster, samplePod, startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { parseConfig } from "../../src/config/index.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";

/**
 * Issue 9 section 3, end to end in-process: the demo's esx-01 is hot on cpu ready; with
 * `rebalance.enabled` (dry run off, a very short hotForMinutes) hvx takes the Lease
 * hvx-rebalancer, evicts the demo's ReplicaSet pod on k8s-worker-01 (web-5d8f7c9b6-0) through the
 * Eviction API of the fake API server (held to the shipped RBAC), records an Event and counts it.
 * The demo's other hot host holds a batch pod (nightly-report-2): it may go in the same cycle.
 */
describe("rebalancing off a chronically hot host (end to end, in-process)", function () {
  this.timeout(60_000);
  let vcenter: MockVcenterHandle;
  let kube: FakeKubeApiserver;
  let hvx: RunningHvx;
  let dir = "";

  async function start(rebalance: string): Promise<void> {
    const scenario = loadScenario(demoScenarioPath());
    vcenter = await startMockVcenter({ scenario });
    kube = await startFakeKubeApiserver();
    kube.controls.bulkLoad(demoCluster(scenario.vms));
    kube.controls.upsertPod(
      samplePod({
        namespace: "kube-system",
        name: "dns-0",
        nodeName: "k8s-worker-01",
        cpu: "100m",
        memory: "64Mi",
        owner: { kind: "ReplicaSet", name: "dns-1" },
      }),
    );
    dir = mkdtempSync(join(tmpdir(), "hvx-rebalance-"));
    writeFileSync(join(dir, "kubeconfig"), kube.kubeconfigYaml());
    const config = parseConfig(
      [
        `server: { address: 127.0.0.1, port: ${await freePort()}, adminPort: ${await freePort()} }`,
        `vcenter: { url: "${vcenter.url}", allowPlaintext: true, username: "${scenario.credentials.username}", password: "${scenario.credentials.password}", pollIntervalSeconds: 1 }`,
        `kubernetes: { enabled: true, kubeconfig: "${join(dir, "kubeconfig")}" }`,
        "admission: { enabled: false, hotHostBrakePercent: 100 }",
        rebalance,
      ].join("\n"),
    );
    hvx = await startHvx(config, silentLogger(), { inCluster: false, podNamespace: "hvx-system" });
  }

  afterEach(async () => {
    await hvx?.stop();
    await kube?.close().catch(() => undefined);
    await vcenter?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("given dryRun false, evicts the ReplicaSet pod off esx-01, records an Event and counts it; leaves kube-system alone", async () => {
    // maxEvictionsPerHour 2: at most one cycle's worth, so the figures below settle. The demo runs a
    // handful of pods: at the default 2 per 100 pod-hours their budget would be 0, so 100 (one per pod).
    await start(
      "rebalance: { enabled: true, dryRun: false, intervalSeconds: 0.5, leaseDurationSeconds: 2, hotForMinutes: 0.02, maxEvictionsPerHour: 2, maxEvictionsPer100PodHours: 100 }",
    );
    await until(
      () => (kube.controls.stats().evictions.includes("evicted shop/web-5d8f7c9b6-0") ? true : undefined),
      20_000,
      "the web pod's eviction",
    );
    // The other hot host's batch pod may be evicted moments after the web pod, in the same
    // cycle: evictions, Events and the counter are read together until they agree.
    const settled = await until(
      async () => {
        const evicted = kube.controls.stats().evictions;
        const events = kube.controls.events("shop");
        const metrics = await (await fetch(`http://127.0.0.1:${hvx.adminPort}/metrics`)).text();
        const counted = new RegExp(`hvx_rebalance_evictions_total\\{result="evicted"\\} ${evicted.length}\\n`).test(metrics);
        return events.length === evicted.length && counted ? { evicted, events } : undefined;
      },
      5_000,
      "one Event and one count per eviction",
    );
    expect(settled.evicted.length).to.be.within(1, 2);
    expect(kube.controls.getPod("shop", "web-5d8f7c9b6-0")).to.equal(undefined);
    expect(kube.controls.getPod("kube-system", "dns-0"), "exempt namespace").to.not.equal(undefined);
    expect(kube.controls.getLease("hvx-system", "hvx-rebalancer")).to.not.equal(undefined);
    expect(new Set(settled.events.map((e) => e.reason))).to.deep.equal(new Set(["HvxRebalanced"]));
    const web = settled.events.find((e) => e.involvedObject.name === "web-5d8f7c9b6-0");
    expect(web?.message).to.match(/ESXi host esx-01 \(host-11\) hot for \d+ min: cpu ready/);
    expect(kube.controls.stats().forbidden).to.deep.equal([]);
  });

  it("given the default dry run, records an Event and evicts nothing", async () => {
    await start(
      "rebalance: { enabled: true, intervalSeconds: 0.5, leaseDurationSeconds: 2, hotForMinutes: 0.02, maxEvictionsPer100PodHours: 100 }",
    );
    const events = await until(
      () => kube.controls.events("shop").find((e) => e.involvedObject.name === "web-5d8f7c9b6-0"),
      20_000,
      "a dry-run Event on the web pod",
    );
    expect(events.reason).to.equal("HvxRebalanceDryRun");
    expect(kube.controls.stats().evictions).to.deep.equal([]);
    expect(kube.controls.getPod("shop", "web-5d8f7c9b6-0")).to.not.equal(undefined);
  });
});
