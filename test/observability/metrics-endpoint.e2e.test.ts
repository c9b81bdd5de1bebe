import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoCluster, startFakeKubeApiserver, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { hvxVersion } from "../../src/build-info.js";
import { parseConfig } from "../../src/config/index.js";
import { startHvx, type RunningHvx } from "../../src/main.js";
import { silentLogger } from "../../src/observability/logger.js";
import { makeCa, makeSigned } from "../fixtures/certs.js";
import { until } from "../fixtures/eventually.js";
import { requirePromtool, runPromtool } from "../monitoring/promtool.js";
import { freePort } from "../fixtures/net.js";

/** Series of one metric in Prometheus text format: the label set as text -> value. */
function seriesOf(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? "", Number(m[3]));
  }
  return out;
}

/**
 * Issue 10 §2 and issue 12 §1 through the real wiring: hvx against the mock vCenter (demo
 * scenario) and the fake Kubernetes API, /metrics scraped on the admin port.
 */
describe("GET /metrics on the admin port: per-host gauges, node info, certificate expiry (end to end, in-process)", function () {
  this.timeout(40_000);
  let vcenter: MockVcenterHandle;
  let kube: FakeKubeApiserver;
  let hvx: RunningHvx;
  let dir = "";
  let certNotAfterS = 0;
  const scenario = loadScenario(demoScenarioPath());
  const scrape = async () => (await fetch(`http://127.0.0.1:${hvx.adminPort}/metrics`)).text();

  before(async () => {
    vcenter = await startMockVcenter({ scenario });
    kube = await startFakeKubeApiserver();
    kube.controls.bulkLoad(demoCluster(scenario.vms));
    dir = mkdtempSync(join(tmpdir(), "hvx-metrics-"));
    writeFileSync(join(dir, "kubeconfig"), kube.kubeconfigYaml());
    const ca = makeCa(dir, "ca");
    const leaf = makeSigned(dir, "webhook", ca);
    const enddate = execFileSync("/usr/bin/openssl", ["x509", "-noout", "-enddate", "-in", leaf.certFile], { encoding: "utf8" });
    certNotAfterS = Date.parse(enddate.replace("notAfter=", "").trim()) / 1000;
    const config = parseConfig(
      [
        `server: { address: 127.0.0.1, port: ${await freePort()}, adminPort: ${await freePort()} }`,
        `vcenter: { url: "${vcenter.url}", allowPlaintext: true, username: "${scenario.credentials.username}", password: "${scenario.credentials.password}", pollIntervalSeconds: 1 }`,
        `kubernetes: { enabled: true, kubeconfig: "${join(dir, "kubeconfig")}" }`,
        "nodeLabels: { enabled: false }",
        `admission: { enabled: true, port: ${await freePort()}, tls: { certFile: "${leaf.certFile}", keyFile: "${leaf.keyFile}" } }`,
      ].join("\n"),
    );
    hvx = await startHvx(config, silentLogger(), { inCluster: false, podNamespace: "hvx-system" });
  });

  after(async () => {
    await hvx?.stop();
    await kube?.close().catch(() => undefined);
    await vcenter?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("exports hvx_build_info with hvx's and Node.js's versions", async () => {
    expect([...seriesOf(await scrape(), "hvx_build_info")]).to.deep.equal([
      [`{version="${hvxVersion()}",node_version="${process.version}"}`, 1],
    ]);
  });

  it("exports a heat series per demo host, with vCenter's host and cluster names, and esx-01 hot", async () => {
    const text = await until(
      async () => {
        const t = await scrape();
        return seriesOf(t, "hvx_host_heat").size === scenario.hosts.length ? t : undefined;
      },
      15_000,
      "a heat series per host",
    );
    const heat = seriesOf(text, "hvx_host_heat");
    expect(heat.get('{host="esx-01",cluster="prod-a",heat="hot"}')).to.equal(1);
    expect([...heat.values()].every((v) => v === 1)).to.equal(true);
    expect(seriesOf(text, "hvx_host_cpu_ready_percent").get('{host="esx-01",cluster="prod-a"}')).to.be.above(10);
    expect(seriesOf(text, "hvx_host_metric_age_seconds").size).to.equal(scenario.hosts.length);
  });

  it("exports hvx_node_info for every demo node, and follows a VM that moves to another host", async () => {
    const vm = scenario.vms.find((v) => v.name === "k8s-worker-01")!;
    const label = (host: string) => `{node="k8s-worker-01",vm="k8s-worker-01",host="${host}",cluster="prod-a",vcenter="127.0.0.1"}`;
    const before = await until(
      async () => {
        const info = seriesOf(await scrape(), "hvx_node_info");
        return info.has(label("esx-01")) ? info : undefined;
      },
      15_000,
      "node info for k8s-worker-01",
    );
    expect(before.size).to.equal(demoCluster(scenario.vms).nodes.length);
    vcenter.controls.moveVm(vm.id, "host-16");
    const after = await until(
      async () => {
        const info = seriesOf(await scrape(), "hvx_node_info");
        return info.has(label("esx-06")) ? info : undefined;
      },
      15_000,
      "node info to follow the move",
    );
    expect(after.has(label("esx-01"))).to.equal(false);
    expect([...after.keys()].filter((k) => k.includes('node="k8s-worker-01"'))).to.have.length(1);
  });

  it("drops a node's series once it leaves the cluster", async () => {
    await until(async () => (seriesOf(await scrape(), "hvx_node_heat").size > 0 ? true : undefined), 15_000, "node heat");
    expect(kube.controls.deleteNode("k8s-worker-02")).to.equal(true);
    await until(
      async () => {
        const text = await scrape();
        const gone = ![...seriesOf(text, "hvx_node_info").keys(), ...seriesOf(text, "hvx_node_heat").keys()].some((k) =>
          k.includes('node="k8s-worker-02"'),
        );
        return gone ? true : undefined;
      },
      15_000,
      "k8s-worker-02's series to go",
    );
  });

  it("passes `promtool check metrics`, the families hvx writes as text included", async function () {
    const promtool = requirePromtool(this);
    const text = await until(
      async () => {
        const t = await scrape();
        return seriesOf(t, "hvx_node_heat").size > 0 ? t : undefined;
      },
      15_000,
      "node heat",
    );
    const r = runPromtool(promtool, ["check", "metrics"], dir, text);
    // 3: lint problems only, and the only ones are prom-client's own (`nodejs_active_handles_total` is a gauge).
    expect(r.status, r.output).to.be.oneOf([0, 3]);
    expect(r.output.split("\n").filter((line) => line !== "" && !line.startsWith("nodejs_"))).to.deep.equal([]);
    for (const name of ["hvx_node_info", "hvx_node_heat", "hvx_host_heat", "hvx_build_info"]) {
      expect(
        text.split("\n").filter((l) => l === `# TYPE ${name} gauge`),
        name,
      ).to.have.length(1);
    }
  });

  it("exports the webhook certificate's notAfter, and nothing for the plain-HTTP extender", async () => {
    const expiry = seriesOf(await scrape(), "hvx_tls_certificate_expiry_timestamp_seconds");
    expect([...expiry.entries()]).to.deep.equal([['{listener="admission"}', certNotAfterS]]);
  });

  it("exports the default process metrics under their standard names, never hvx_process_*", async () => {
    const text = await scrape();
    expect(text).to.match(/^process_cpu_seconds_total \d/m);
    expect(text).to.match(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).to.not.include("hvx_process_");
  });
});
