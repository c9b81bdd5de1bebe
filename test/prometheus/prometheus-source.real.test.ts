import { expect } from "chai";
import { Registry } from "prom-client";
import {
  prometheusBinary,
  startFakeExporter,
  startPrometheus,
  type FakeExporterHandle,
  type PrometheusHandle,
} from "../../mocks/prometheus-exporter/index.js";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle } from "../../mocks/vcenter/index.js";
import { parseConfig, type Config } from "../../src/config/index.js";
import type { InventoryView } from "../../src/model/inventory.js";
import type { NodeIdentity } from "../../src/model/node.js";
import { silentLogger } from "../../src/observability/logger.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import type { Reason } from "../../src/placement/reason.js";
import { buildPrometheusSourceParts, PrometheusPoller } from "../../src/prometheus/index.js";
import { buildVcenterParts, VcenterPoller } from "../../src/vsphere/index.js";

/**
 * Issue 11 §1, against the real Prometheus server (Debian's package; .ci/run installs it):
 * a fake exporter serves the demo scenario as Telegraf and as vmware_exporter would, the real
 * Prometheus scrapes it every second, and hvx's decisions from each source are compared with
 * the vCenter poller's on the same scenario.
 */
describe("Prometheus source against a real Prometheus (demo scenario)", function () {
  this.timeout(60_000);
  const scenario = loadScenario(demoScenarioPath());
  const config = parseConfig(undefined);
  const pod = { namespace: "shop", name: "api-0", ownerKinds: ["ReplicaSet"], annotations: {} };
  const nodes: NodeIdentity[] = scenario.vms
    .filter((v) => v.name.startsWith("k8s-"))
    .map((v) => ({ name: v.name, providerID: `vsphere://${v.biosUuid}` }));
  let vcenter: MockVcenterHandle;
  let telegraf: FakeExporterHandle;
  let exporter: FakeExporterHandle;
  let prometheus: PrometheusHandle | undefined;
  const views: Record<"vcenter" | "telegraf" | "vmware_exporter", InventoryView | undefined> = {
    vcenter: undefined,
    telegraf: undefined,
    vmware_exporter: undefined,
  };
  const pollers: Array<{ stop(): void }> = [];

  const promConfig = (flavour: "telegraf" | "vmware_exporter", url: string) =>
    parseConfig(`prometheus: { url: "${url}", flavour: ${flavour}, selector: "job=\\"vsphere\\"" }`).prometheus;
  const vcenterConfig = () => ({
    ...config.vcenter,
    url: vcenter.url,
    username: scenario.credentials.username,
    password: scenario.credentials.password,
  });

  before(async function () {
    if (prometheusBinary() === undefined) {
      console.log(
        "    SKIPPED: the prometheus binary is not installed (CI installs Debian's prometheus package: scripts/install-prometheus.sh)",
      );
      this.skip();
    }
    vcenter = await startMockVcenter({ scenario });
    telegraf = await startFakeExporter({ scenario, flavour: "telegraf" });
    exporter = await startFakeExporter({ scenario, flavour: "vmware_exporter" });
    prometheus = await startPrometheus([telegraf.target, exporter.target]);
    await prometheus.waitForTargets();
    const vcParts = buildVcenterParts({ vcenter: vcenterConfig(), log: silentLogger(), registry: new Registry() });
    const vc = new VcenterPoller({
      vcenter: vcenterConfig(),
      maxMetricAgeSeconds: 120,
      thresholds: config.thresholds,
      log: silentLogger(),
      ...vcParts,
    });
    const source = (p: Config["prometheus"], vcenter: Config["vcenter"]) => {
      const parts = buildPrometheusSourceParts({ prometheus: p, vcenter, log: silentLogger(), registry: new Registry() });
      return new PrometheusPoller({ prometheus: p, maxMetricAgeSeconds: 120, log: silentLogger(), ...parts });
    };
    const tg = source(promConfig("telegraf", prometheus.url), vcenterConfig());
    const ex = source(promConfig("vmware_exporter", prometheus.url), config.vcenter);
    pollers.push(vc, tg, ex);
    await Promise.all([vc.pollOnce(), tg.pollOnce(), ex.pollOnce()]);
    views.vcenter = vc.latest();
    views.telegraf = tg.latest();
    views.vmware_exporter = ex.latest();
  });

  after(async () => {
    for (const p of pollers) p.stop();
    await prometheus?.close();
    await telegraf?.close();
    await exporter?.close();
    await vcenter?.close();
  });

  const decide = (view: InventoryView, ignore: readonly string[] = []) => {
    const ctx = { inventory: view, policy: config, nowMs: Date.now() };
    const out = filterNodes(pod, nodes, ctx);
    const reasons = new Map(
      [...out.unresolvable, ...out.failed].map(([node, rs]) => [
        node,
        rs
          .map(reasonKey)
          .filter((k) => !ignore.some((i) => k.endsWith(i)))
          .sort(),
      ]),
    );
    const scores = new Map(prioritizeNodes(pod, nodes, ctx).map((s) => [s.node, s.score]));
    return { passed: out.passed, reasons, scores };
  };

  it("reads every host and VM of the scenario through Prometheus, with fresh host metrics", () => {
    for (const flavour of ["telegraf", "vmware_exporter"] as const) {
      const view = views[flavour]!;
      expect(view.hosts.size, flavour).to.equal(scenario.hosts.length);
      expect(view.vms.size, flavour).to.equal(scenario.vms.length);
      const connected = [...view.hosts.values()].filter((h) => h.connectionState === "CONNECTED");
      for (const h of connected) {
        expect(h.metrics, `${flavour} ${h.name}`).to.not.equal(undefined);
        expect(Date.now() - h.metrics!.sampledAtMs, `${flavour} ${h.name} sample age`).to.be.below(30_000);
      }
    }
  });

  it("telegraf: the same nodes rejected for the same reasons as the vCenter source, scores within one point", () => {
    const want = decide(views.vcenter!);
    const got = decide(views.telegraf!);
    expect(want.reasons.size, "the demo has hot hosts").to.be.greaterThan(0);
    expect(got.passed).to.deep.equal(want.passed);
    expect(got.reasons).to.deep.equal(want.reasons);
    for (const [node, score] of want.scores) expect(Math.abs((got.scores.get(node) ?? -99) - score), node).to.be.at.most(1);
  });

  it("vmware_exporter: the same nodes rejected for the same reasons (memory state is unknown there), scores within one point", () => {
    const want = decide(views.vcenter!, ["memory state"]);
    const got = decide(views.vmware_exporter!, ["memory state"]);
    expect(got.passed).to.deep.equal(want.passed);
    expect(got.reasons).to.deep.equal(want.reasons);
    for (const [node, score] of want.scores) expect(Math.abs((got.scores.get(node) ?? -99) - score), node).to.be.at.most(1);
    const memState = [...views.vmware_exporter!.hosts.values()].map((h) => h.metrics?.memState).filter((s) => s !== undefined);
    expect(memState, "mem.state is never known from vmware_exporter").to.deep.equal([]);
  });
});

/** Host by name (the exporter flavour keys hosts by name, not moid), code and metric. */
function reasonKey(r: Reason): string {
  const host = "host" in r ? r.host.name : "";
  const what = "metric" in r ? r.metric : "state" in r ? r.state : "";
  return `${r.code} ${host} ${what}`;
}
