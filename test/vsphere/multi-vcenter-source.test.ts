import { expect } from "chai";
import { Registry } from "prom-client";
import { demoScenarioPath, loadScenario, startMockVcenter, type MockVcenterHandle, type Scenario } from "../../mocks/vcenter/index.js";
import { parseConfig } from "../../src/config/index.js";
import type { Config } from "../../src/config/schema.js";
import type { NodeIdentity } from "../../src/model/node.js";
import { silentLogger, type Logger } from "../../src/observability/logger.js";
import { decideNode } from "../../src/placement/decide-node.js";
import { MultiVcenterSource } from "../../src/vsphere/multi-vcenter-source.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { VcenterPoller } from "../../src/vsphere/vcenter-poller.js";

/**
 * Issue 11 §2: two mock vCenters serving the same ids (both have host-11 and vm-101), one
 * poller each, combined. vc02 is the demo with other BIOS UUIDs and VM names, and its esx-01
 * cool, so a collision of ids would show as a wrong verdict.
 */
describe("MultiVcenterSource: two mock vCenters with overlapping ids", function () {
  this.timeout(15_000);
  const demo = loadScenario(demoScenarioPath());
  const otherUuid = (u: string) => `${u.slice(0, -4)}beef`;
  const second: Scenario = {
    ...demo,
    vms: demo.vms.map((vm) => ({
      ...vm,
      name: `b-${vm.name}`,
      ...(vm.biosUuid ? { biosUuid: otherUuid(vm.biosUuid) } : {}),
      ...(vm.host === "host-11" ? { metrics: { ...vm.metrics, readyPercent: 1 } } : {}),
    })),
  };
  const pod = { namespace: "shop", name: "api-0", ownerKinds: ["ReplicaSet"], annotations: {} };
  const now = { ms: Date.parse("2026-11-30T12:00:00Z") };
  let mocks: MockVcenterHandle[] = [];
  let pollers: VcenterPoller[] = [];

  function configFor(urls: string[]): Readonly<Config> {
    const list = urls.map(
      (url, i) =>
        `{ name: vc0${i + 1}, url: "${url}", username: "${demo.credentials.username}", password: "${demo.credentials.password}" }`,
    );
    return parseConfig(`vcenters: [${list.join(", ")}]`);
  }

  async function start(scenarios: Scenario[], log: Logger = silentLogger(), prediction = false) {
    mocks = await Promise.all(scenarios.map((scenario) => startMockVcenter({ scenario, clock: () => now.ms })));
    const config = configFor(mocks.map((m) => m.url));
    const registry = new Registry();
    pollers = config.vcenters.map(
      (vc) =>
        new VcenterPoller({
          vcenter: vc,
          maxMetricAgeSeconds: 120,
          thresholds: config.thresholds,
          log,
          ...buildVcenterParts({ vcenter: vc, name: vc.name!, log, registry }),
          clock: () => now.ms,
          random: () => 1,
          prediction: { enabled: prediction },
        }),
    );
    const source = new MultiVcenterSource(
      config.vcenters.map((vc, i) => ({ name: vc.name!, source: pollers[i]! })),
      log,
    );
    await Promise.all(pollers.map((p) => p.pollOnce()));
    return { config, source, registry };
  }

  afterEach(async () => {
    await Promise.all(pollers.map((p) => p.stop()));
    await Promise.all(mocks.map((m) => m.close().catch(() => undefined)));
    mocks = [];
    pollers = [];
  });

  const node = (vm: { name: string; biosUuid?: string }): NodeIdentity => ({ name: vm.name, providerID: `vsphere://${vm.biosUuid}` });
  const worker01 = demo.vms.find((v) => v.name === "k8s-worker-01")!;
  const worker13 = demo.vms.find((v) => v.name === "k8s-worker-13")!;
  const bWorker01 = second.vms.find((v) => v.name === "b-k8s-worker-01")!;
  const bWorker13 = second.vms.find((v) => v.name === "b-k8s-worker-13")!;

  it("prefixes every host and VM id with its vCenter's name, and judges each node on its own vCenter's host", async () => {
    const { config, source } = await start([demo, second]);
    const view = source.latest();
    expect(view.hosts.size).to.equal(2 * demo.hosts.length);
    expect(view.vms.size).to.equal(2 * demo.vms.length);
    expect(view.hosts.get("vc01/host-11")?.vmIds).to.include("vc01/vm-101");
    expect(view.vms.get("vc02/vm-101")?.hostId).to.equal("vc02/host-11");
    const ctx = { inventory: view, policy: config, nowMs: now.ms };
    const hot = decideNode(node(worker01), pod, ctx);
    expect(hot.host?.id).to.equal("vc01/host-11");
    expect(hot.verdict).to.equal("reject");
    const cool = decideNode(node(bWorker01), pod, ctx);
    expect(cool.host?.id).to.equal("vc02/host-11");
    expect(cool.verdict).to.equal("pass");
    expect(cool.noOpinion).to.equal(false);
  });

  it("when one vCenter is down, keeps judging the other's hosts while the down one's go stale", async () => {
    const { config, source } = await start([demo, second]);
    await mocks[1]!.close();
    now.ms += 200_000;
    await pollers[0]!.pollOnce();
    const failed = await pollers[1]!.pollOnce().then(
      () => false,
      () => true,
    );
    expect(failed).to.equal(true);
    const ctx = { inventory: source.latest(), policy: config, nowMs: now.ms };
    const up = decideNode(node(worker13), pod, ctx);
    expect(up.host?.id).to.equal("vc01/host-17");
    expect(up.noOpinion).to.equal(false);
    expect(up.verdict).to.equal("pass");
    const down = decideNode(node(bWorker13), pod, ctx);
    expect(down.host?.id).to.equal("vc02/host-17");
    expect(down.noOpinion).to.equal(true);
    expect(down.reasons.map((r) => r.code)).to.satisfy((codes: string[]) => codes.some((c) => c.endsWith("_stale")));
    const status = source.status();
    expect(status.consecutiveFailures).to.equal(1);
    expect(status.lastError).to.match(/^vc02: /);
  });

  it("maps a BIOS UUID found in both vCenters (same VM name too) to no node, not even by name, and warns once", async () => {
    const warnings: unknown[] = [];
    const log = { ...silentLogger(), warn: (...args: unknown[]) => void warnings.push(args) } as unknown as Logger;
    const clone: Scenario = {
      ...second,
      vms: second.vms.map((vm) => (vm.id === "vm-113" ? { ...vm, name: worker13.name, biosUuid: worker13.biosUuid! } : vm)),
    };
    const { config, source } = await start([demo, clone], log);
    const view = source.latest();
    const ctx = { inventory: view, policy: config, nowMs: now.ms };
    expect(view.vms.get("vc02/vm-113")?.biosUuid, "vc02 copy").to.equal(undefined);
    expect(view.vms.get("vc01/vm-113")?.biosUuid, "vc01 copy").to.equal(undefined);
    const decision = decideNode(node(worker13), pod, ctx);
    expect(decision.vm).to.equal(undefined);
    expect(decision.reasons.map((r) => r.code)).to.include("node_unmapped");
    // Other nodes still map.
    expect(decideNode(node(worker01), pod, ctx).host?.id).to.equal("vc01/host-11");
    now.ms += 20_000;
    await Promise.all(pollers.map((p) => p.pollOnce()));
    source.latest();
    const dupWarnings = warnings.filter((w) => JSON.stringify(w).includes(worker13.biosUuid!.toLowerCase()));
    expect(dupWarnings).to.have.length(1);
  });

  it("reads a VM's summary from the vCenter its prefixed id names; an unknown prefix is refused", async () => {
    const { source } = await start([demo, second]);
    const before = mocks.map((m) => m.controls.stats());
    await source.vmSummary("vc02/vm-101");
    const after = mocks.map((m) => m.controls.stats());
    expect(JSON.stringify(after[0])).to.equal(JSON.stringify(before[0]));
    expect(JSON.stringify(after[1])).to.not.equal(JSON.stringify(before[1]));
    let refused: unknown;
    await source.vmSummary("vc09/vm-101").catch((err: unknown) => (refused = err));
    expect(String(refused)).to.match(/no vCenter named in VM id vc09\/vm-101/);
  });

  it("given prediction on, carries each vCenter's host forecasts under the prefixed host ids", async () => {
    const { source } = await start([demo, second], silentLogger(), true);
    // a poll's single sample is not a trusted profile: the forecasts come from the warm start's week
    await Promise.all(pollers.map((p) => p.historySettled()));
    await Promise.all(pollers.map((p) => p.pollOnce()));
    const view = source.latest();
    expect(view.forecasts?.size).to.equal(view.hosts.size);
    expect([...view.forecasts!.keys()].every((id) => view.hosts.has(id))).to.equal(true);
    expect(new Set([...view.forecasts!.keys()].map((id) => id.split("/")[0]))).to.deep.equal(new Set(["vc01", "vc02"]));
  });

  it("labels each poller's metrics with its vCenter's name in one registry", async () => {
    const { registry } = await start([demo, second]);
    const text = await registry.metrics();
    expect(text).to.match(/hvx_vcenter_hosts\{vcenter="vc01"\} 13/);
    expect(text).to.match(/hvx_vcenter_hosts\{vcenter="vc02"\} 13/);
    expect(text).to.match(/hvx_vcenter_data_age_seconds\{vcenter="vc02"\}/);
  });
});
