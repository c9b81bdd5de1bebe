import { expect } from "chai";
import { Registry } from "prom-client";
import {
  demoScenarioPath,
  generateScenario,
  loadScenario,
  startMockVcenter,
  type MockVcenterHandle,
  type Scenario,
} from "../../mocks/vcenter/index.js";
import { configSchema } from "../../src/config/schema.js";
import type { InventoryView } from "../../src/model/inventory.js";
import { silentLogger } from "../../src/observability/logger.js";
import { assessHost } from "../../src/placement/assess-host.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { SoapClient } from "../../src/vsphere/soap-client.js";
import { SoapPerf } from "../../src/vsphere/soap-perf.js";
import { createVcenterHttp } from "../../src/vsphere/vcenter-http.js";
import { VcenterPoller } from "../../src/vsphere/vcenter-poller.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

/**
 * The SOAP path against the mock vCenter's `/sdk`, for what vcsim cannot stage: hot hosts,
 * faults, a lowered maxQueryMetrics, paged PropertyCollector results. The mock answers SOAP
 * and VI/JSON from the same state, so both transports must give hvx the same view.
 */
const NOW_MS = Date.parse("2026-11-29T10:00:00Z");

describe("the SOAP path against the mock vCenter", function () {
  this.timeout(30_000);
  let mock: MockVcenterHandle | undefined;
  const pollers: VcenterPoller[] = [];
  let demo: Scenario;

  before(() => {
    demo = loadScenario(demoScenarioPath());
  });
  afterEach(async () => {
    await Promise.all(pollers.splice(0).map((p) => p.stop()));
    await mock?.close();
    mock = undefined;
  });

  async function start(scenario: Scenario): Promise<MockVcenterHandle> {
    mock = await startMockVcenter({ scenario, clock: () => NOW_MS });
    return mock;
  }
  function poller(api: "soap" | "vijson" | "auto", registry = new Registry()): VcenterPoller {
    const creds = { username: "administrator@vsphere.local", password: "hvx-demo" };
    const vcenter = configSchema.parse({ vcenter: { url: mock!.url, ...creds, api } }).vcenter;
    const log = silentLogger();
    const p = new VcenterPoller({
      vcenter,
      maxMetricAgeSeconds: 120,
      thresholds: DEFAULT_POLICY.thresholds,
      log,
      clock: () => NOW_MS,
      ...buildVcenterParts({ vcenter, log, registry }),
    });
    pollers.push(p);
    return p;
  }

  it("given the demo scenario, SOAP and VI/JSON give the same inventory view, metrics included", async () => {
    await start(demo);
    const [viaSoap, viaJson] = [poller("soap"), poller("vijson")];
    await viaSoap.pollOnce();
    await viaJson.pollOnce();
    expect(plain(viaSoap.latest())).to.deep.equal(plain(viaJson.latest()));
    expect(viaSoap.latest().hosts.size).to.equal(13);
    expect(mock!.controls.stats().logins).to.deep.include({ soap: 1, viJson: 1, automation: 1 });
  });

  it("given the demo's hot host esx-01 (ready 12-14 %), rejects it via SOAP with the same reasons as via VI/JSON", async () => {
    await start(demo);
    const [viaSoap, viaJson] = [poller("soap"), poller("vijson")];
    await Promise.all([viaSoap.pollOnce(), viaJson.pollOnce()]);
    const judge = (p: VcenterPoller) => assessHost(p.latest().hosts.get("host-11")!, undefined, DEFAULT_POLICY.thresholds, NOW_MS);
    expect(judge(viaSoap).heat).to.equal("hot");
    expect(judge(viaSoap).rejections).to.deep.equal(judge(viaJson).rejections);
    expect(judge(viaSoap).rejections.map((r) => (r.code === "host_metric" ? r.metric : r.code))).to.include("cpu ready");
  });

  it("given viJsonReleases [7.0.3.0] (a vCenter 7.0.3), auto picks SOAP and the poll succeeds", async () => {
    await start({ ...demo, viJsonReleases: ["7.0.3.0"] });
    const p = poller("auto");
    await p.pollOnce();
    expect(p.latest().hosts.size).to.equal(13);
    expect(p.status().api).to.equal("soap");
    const stats = mock!.controls.stats();
    expect(stats.logins).to.deep.equal({ automation: 0, viJson: 0, soap: 1 });
    expect(stats.requestsByRoute["GET /sdk/vimServiceVersions.xml"]).to.equal(1);
  });

  it("given viJsonReleases [7.0.3.0] and vcenter.api vijson, fails naming vim25 7.0.3.0 and vcenter.api", async () => {
    await start({ ...demo, viJsonReleases: ["7.0.3.0"] });
    const p = poller("vijson");
    const err = await p.pollOnce().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).to.include("404").and.include("7.0.3.0").and.include("vcenter.api: soap");
    expect(p.status().lastError).to.include("7.0.3.0");
  });

  it("given expired sessions, logs in again once over SOAP (NotAuthenticated fault) and the poll succeeds", async () => {
    await start(demo);
    const registry = new Registry();
    const p = poller("soap", registry);
    await p.pollOnce();
    mock!.controls.expireAllSessions();
    await p.pollOnce();
    expect(mock!.controls.stats().logins.soap).to.equal(2);
    const relogins = (await registry.getSingleMetric("hvx_vcenter_relogins_total")!.get()).values.find((v) => v.labels["api"] === "soap");
    expect(relogins?.value).to.equal(1);
  });

  it("given a host whose QueryPerf answers a SystemError, fails that host alone (perf) and publishes the others", async () => {
    await start({ ...demo, faults: { ...demo.faults, hostFaults: { "host-14": "perf" } } });
    const p = poller("soap");
    await p.pollOnce();
    expect(p.status().hostErrors?.["host-14"]?.reason).to.equal("perf");
    expect(p.status().hostErrors?.["host-14"]?.error).to.include("SystemError");
    expect(p.latest().hosts.get("host-11")?.metrics?.cpuReadyPercent).to.be.within(11.5, 14.5);
  });

  it("given maxQueryMetrics 64 in vCenter's settings, reads it over SOAP and keeps every QueryPerf within it", async () => {
    await start({ ...demo, advancedSettings: { "config.vpxd.stats.maxQueryMetrics": 64 } });
    const p = poller("soap");
    await p.pollOnce();
    expect(p.status().maxQueryMetrics).to.equal(64);
    expect(mock!.controls.stats().maxMetricsInOneQuery).to.be.at.most(64);
  });

  it("given the limit lowered to 16 after the read, halves QueryPerf on RestrictedByAdministrator and still reads every host", async () => {
    await start(demo);
    const p = poller("soap");
    await p.pollOnce();
    mock!.controls.setAdvancedSetting("config.vpxd.stats.maxQueryMetrics", 16);
    await p.pollOnce();
    expect(p.status().maxQueryMetrics).to.be.at.most(16);
    expect(p.status().hostErrors).to.equal(undefined);
    expect(p.latest().hosts.get("host-11")?.metrics?.cpuReadyPercent).to.be.within(11.5, 14.5);
  });

  it("given more objects than one PropertyCollector page (1000), follows ContinueRetrievePropertiesEx to the end", async () => {
    await start(generateScenario({ hosts: 30, vmsPerHost: 40 }));
    const p = poller("soap");
    await p.pollOnce();
    expect(p.latest().vms.size).to.equal(1200);
    expect(p.latest().hosts.size).to.equal(30);
    expect(mock!.controls.stats().requestsByRoute["POST /sdk ContinueRetrievePropertiesEx"]).to.be.at.least(1);
  });

  it("given a historical QueryPerf (intervalId 300, the past hour), returns the 300 s samples oldest first, as the warm start reads them", async () => {
    await start(demo);
    const http = createVcenterHttp({ baseUrl: mock!.url, timeoutMs: 5000, insecureSkipTLSVerify: false, maxConcurrency: 2 });
    const client = new SoapClient({
      send: http.send,
      username: "administrator@vsphere.local",
      password: "hvx-demo",
      apiVersion: "8.0.1.0",
    });
    try {
      const perf = new SoapPerf(client);
      const ready = (await perf.perfCounters()).find(
        (c) => `${c.groupInfo.key}.${c.nameInfo.key}.${c.rollupType}` === "cpu.ready.summation",
      )!;
      const [metric] = await perf.queryPerf([
        {
          _typeName: "PerfQuerySpec",
          entity: { _typeName: "ManagedObjectReference", type: "VirtualMachine", value: "vm-101" },
          metricId: [{ _typeName: "PerfMetricId", counterId: ready.key, instance: "" }],
          intervalId: 300,
          startTime: new Date(NOW_MS - 3_600_000).toISOString(),
          endTime: new Date(NOW_MS).toISOString(),
        },
      ]);
      const times = metric!.sampleInfo!.map((s) => Date.parse(s.timestamp));
      // (now - 1 h, now] on 5-minute boundaries: 12 samples of 300 s.
      expect(times).to.have.length(12);
      expect(times).to.deep.equal([...times].sort((a, b) => a - b));
      expect(metric!.sampleInfo!.every((s) => s.interval === 300)).to.equal(true);
      expect(metric!.value![0]!.value).to.have.length(12);
    } finally {
      await client.logout();
      http.close();
    }
  });

  it("given a wrong password, the SOAP login is refused with hvx's auth error", async () => {
    await start({ ...demo, credentials: { username: "administrator@vsphere.local", password: "other" } });
    const p = poller("soap");
    const err = await p.pollOnce().then(
      () => undefined,
      (e: unknown) => e as Error & { kind?: string },
    );
    expect(err?.kind).to.equal("auth");
    expect(p.status().authSuspended?.api).to.equal("soap");
  });
});

/** A view as plain data (maps as sorted entries), for deep comparison. */
function plain(view: InventoryView): unknown {
  const sorted = <V>(m: ReadonlyMap<string, V>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
  return { hosts: sorted(view.hosts), vms: sorted(view.vms), polledAtMs: view.polledAtMs };
}
