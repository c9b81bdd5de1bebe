import { expect } from "chai";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoCluster, startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import {
  prometheusBinary,
  startFakeExporter,
  startPrometheus,
  type FakeExporterHandle,
  type PrometheusHandle,
} from "../../mocks/prometheus-exporter/index.js";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { parseConfig } from "../../src/config/index.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { until } from "../fixtures/eventually.js";
import { freePort } from "../fixtures/net.js";

/**
 * Issue 4 section 5: a pod rejected because its host is hot is admitted once the host
 * cools, and the cooling shows on the Node (the update that makes kube-scheduler retry).
 * Drives the mock vCenter and the fake API server; calls hvx's real endpoints. Runs once per
 * metrics source (issue 11): vCenter, and Prometheus (the real server, scraping a fake exporter
 * of the same scenario) in the telegraf and vmware_exporter flavours.
 */
for (const source of ["vcenter", "telegraf", "vmware_exporter"] as const)
  describe(`a pod rejected for a hot host comes back when the host cools (end to end, in-process, source ${source})`, function () {
    this.timeout(90_000);
    let vcenter: MockVcenterHandle;
    let exporter: FakeExporterHandle | undefined;
    let prometheus: PrometheusHandle | undefined;
    // vmware_exporter has no moids: hosts are named by host_name.
    const esx01 = source === "vmware_exporter" ? "esx-01 \\(esx-01\\)" : "esx-01 \\(host-11\\)";
    let kube: FakeKubeApiserver;
    let hvx: RunningHvx;
    const scenario = loadScenario(demoScenarioPath());
    const pod = {
      metadata: {
        name: "api-0",
        namespace: "shop",
        uid: "u-api-0",
        ownerReferences: [{ kind: "ReplicaSet", name: "api-1", controller: true }],
      },
      spec: { containers: [{ name: "api", resources: { requests: { cpu: "500m", memory: "256Mi" } } }] },
    };
    const post = (url: string, names: string[]) =>
      fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ Pod: pod, Nodes: null, NodeNames: names }),
      });
    const filter = async (names: string[]) =>
      (await (await post(`http://127.0.0.1:${hvx.extenderPort}/filter`, names)).json()) as {
        NodeNames: string[];
        FailedAndUnresolvableNodes: Record<string, string>;
      };
    /** The detailed reasons /debug/explain gives a node (kube-scheduler's are short and host-free). */
    const explainedReasons = async (node: string) =>
      ((await (await post(`http://127.0.0.1:${hvx.adminPort}/debug/explain`, [node])).json()) as { nodes: Array<{ reasons: string[] }> })
        .nodes[0]!.reasons;
    const heatOf = (node: string) =>
      (kube.controls.getNode(node)?.metadata as { annotations?: Record<string, string> } | undefined)?.annotations?.["hvx.io/host-heat"];

    let dir = "";

    before(async function () {
      if (source !== "vcenter" && prometheusBinary() === undefined) {
        console.log(
          "    SKIPPED: the prometheus binary is not installed (CI installs Debian's prometheus package: scripts/install-prometheus.sh)",
        );
        this.skip();
      }
      vcenter = await startMockVcenter({ scenario });
      const prom: string[] = [];
      if (source !== "vcenter") {
        exporter = await startFakeExporter({ scenario, flavour: source });
        prometheus = await startPrometheus([exporter.target]);
        await prometheus.waitForTargets();
        prom.push(
          "metrics: { source: prometheus }",
          `prometheus: { url: "${prometheus.url}", flavour: ${source}, queryIntervalSeconds: 1 }`,
        );
        if (source === "vmware_exporter") prom.push("nodeMapping: [name]");
      }
      kube = await startFakeKubeApiserver();
      kube.controls.bulkLoad(demoCluster(scenario.vms));
      dir = mkdtempSync(join(tmpdir(), "hvx-cools-"));
      writeFileSync(join(dir, "kubeconfig"), kube.kubeconfigYaml());
      const config = parseConfig(
        [
          `server: { address: 127.0.0.1, port: ${await freePort()}, adminPort: ${await freePort()} }`,
          `vcenter: { url: "${vcenter.url}", allowPlaintext: true, username: "${scenario.credentials.username}", password: "${scenario.credentials.password}", pollIntervalSeconds: 1 }`,
          `kubernetes: { enabled: true, kubeconfig: "${join(dir, "kubeconfig")}" }`,
          "nodeLabels: { enabled: true, leaseDurationSeconds: 2, intervalSeconds: 0.3, minHeatChangeSeconds: 1 }",
          "admission: { enabled: false }",
          ...prom,
        ].join("\n"),
      );
      hvx = await startHvx(config, silentLogger(), { inCluster: false, podNamespace: "hvx-system" });
    });

    after(async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      await hvx?.stop();
      await kube?.close().catch(() => undefined);
      await prometheus?.close();
      await exporter?.close();
      await vcenter?.close();
    });

    it("rejects k8s-worker-01 while esx-01 is hot, labels the node, then admits it after esx-01 cools", async () => {
      const first = await until(
        async () => {
          const r = await filter(["k8s-worker-01", "k8s-worker-09"]);
          return r.FailedAndUnresolvableNodes["k8s-worker-01"] ? r : undefined;
        },
        15_000,
        "the hot host's node to be rejected",
      );
      expect(first.FailedAndUnresolvableNodes["k8s-worker-01"]).to.match(/^node\(s\) on hot ESXi hosts \(cpu ready/);
      expect((await explainedReasons("k8s-worker-01"))[0]).to.match(new RegExp(`ESXi host ${esx01}: cpu ready`));
      expect(first.NodeNames).to.deep.equal(["k8s-worker-09"]);

      const hotMark = await until(async () => heatOf("k8s-worker-01"), 15_000, "the hot annotation");
      expect(hotMark, "stable text: heat word and rule names, no values or ages").to.match(/^hot: ([a-z-]+, )*cpu-ready(, [a-z-]+)*$/);
      expect((kube.controls.getNode("k8s-worker-01")?.metadata as { labels: Record<string, string> }).labels["hvx.io/esxi-host"]).to.equal(
        "esx-01",
      );
      expect(kube.controls.getLease("hvx-system", "hvx-node-labeller")).to.not.equal(undefined);

      for (const vm of ["vm-101", "vm-102"]) {
        vcenter.controls.setVmMetric(vm, "readyPercent", 1);
        exporter?.controls.setVmMetric(vm, "readyPercent", 1);
      }

      const after = await until(
        async () => {
          const r = await filter(["k8s-worker-01", "k8s-worker-09"]);
          return r.NodeNames.includes("k8s-worker-01") ? r : undefined;
        },
        15_000,
        "the node to be admitted again",
      );
      expect(after.FailedAndUnresolvableNodes).to.deep.equal({});
      // Hysteresis: a hot mark cools after two clear polls, i.e. two new 20 s samples.
      const coolMark = await until(
        async () => (heatOf("k8s-worker-01")?.startsWith("hot") ? undefined : heatOf("k8s-worker-01")),
        50_000,
        "the annotation to change",
      );
      expect(coolMark).to.match(/^(cool|warm: [a-z-]+(, [a-z-]+)*)$/);
    });

    it("keeps answering from its last view when the API server goes away, and shows the view's age", async () => {
      await kube.close();
      await new Promise((r) => setTimeout(r, 1200));
      const r = await filter(["k8s-worker-01", "k8s-worker-03", "k8s-worker-09"]);
      expect(r.NodeNames).to.include("k8s-worker-09");
      expect(Object.keys(r.FailedAndUnresolvableNodes)).to.include("k8s-worker-03");
      const debug = (await (await fetch(`http://127.0.0.1:${hvx.adminPort}/debug/cluster`)).json()) as {
        status: { lastEventAgeMs: number };
        nodes: number;
      };
      expect(debug.nodes).to.equal(19);
      expect(debug.status.lastEventAgeMs).to.be.at.least(1000);
      const metrics = await (await fetch(`http://127.0.0.1:${hvx.adminPort}/metrics`)).text();
      expect(metrics).to.match(/hvx_cluster_cache_age_seconds \d/);
      const hosts = (await (await fetch(`http://127.0.0.1:${hvx.adminPort}/debug/hosts`)).json()) as { source: { source?: string } };
      expect(hosts.source.source, "/debug/hosts names the metrics source").to.equal(
        source === "vcenter" ? undefined : `prometheus/${source}`,
      );
    });
  });
