import { Writable } from "node:stream";
import { inspect } from "node:util";
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
import { configSchema, type Config } from "../../src/config/schema.js";
import { createLogger, silentLogger, type Logger } from "../../src/observability/logger.js";
import { VcenterAuthError } from "../../src/vsphere/vcenter-auth-error.js";
import { VcenterConfigError } from "../../src/vsphere/vcenter-config-error.js";
import { VcenterHttpError } from "../../src/vsphere/vcenter-http-error.js";
import { VcenterNetworkError } from "../../src/vsphere/vcenter-network-error.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { VcenterPoller } from "../../src/vsphere/vcenter-poller.js";
import { VcenterResponseError } from "../../src/vsphere/vcenter-response-error.js";
import type { ThresholdPolicy } from "../../src/placement/policy.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const USER = "administrator@vsphere.local";
const PASSWORD = "hvx-demo";

function vcenterConfig(url: string, extra: Record<string, unknown> = {}): Config["vcenter"] {
  return configSchema.parse({ vcenter: { url, username: USER, password: PASSWORD, ...extra } }).vcenter;
}

interface Rig {
  mock: MockVcenterHandle;
  poller: VcenterPoller;
  registry: Registry;
  now: { ms: number };
}

async function rig(
  scenario: Scenario,
  opts: {
    vcenter?: Record<string, unknown>;
    log?: Logger;
    random?: () => number;
    thresholds?: Partial<ThresholdPolicy>;
    prediction?: boolean;
  } = {},
): Promise<Rig> {
  const mock = await startMockVcenter({ scenario });
  const registry = new Registry();
  const now = { ms: Date.now() };
  const vcenter = vcenterConfig(mock.url, opts.vcenter);
  const log = opts.log ?? silentLogger();
  const poller = new VcenterPoller({
    vcenter,
    maxMetricAgeSeconds: 120,
    log,
    ...buildVcenterParts({ vcenter, log, registry }),
    clock: () => now.ms,
    random: opts.random ?? (() => 1),
    thresholds: { ...DEFAULT_POLICY.thresholds, ...opts.thresholds },
    prediction: { enabled: opts.prediction ?? false },
  });
  return { mock, poller, registry, now };
}

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return undefined;
  const data = await metric.get();
  const hit = data.values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want));
  return hit?.value;
}

describe("VcenterPoller against the mock vCenter", function () {
  this.timeout(10000);
  let demo: Scenario;
  let r: Rig | undefined;

  before(() => {
    demo = loadScenario(demoScenarioPath());
  });
  afterEach(async () => {
    await r?.poller.stop();
    await r?.mock.close().catch(() => undefined);
    r = undefined;
  });

  it("given the demo scenario, derives host and VM metrics with counter keys read from the catalogue", async () => {
    r = await rig({ ...demo, counterKeyOffset: 4321 });
    await r.poller.pollOnce();
    const view = r.poller.latest();
    expect(view.hosts.size).to.equal(13);
    const hot = view.hosts.get("host-11");
    expect(hot?.name).to.equal("esx-01");
    expect(hot?.clusterName).to.equal("prod-a");
    expect(hot?.cpuCores).to.equal(32);
    expect(hot?.memoryMiB).to.equal(524288);
    expect(hot?.metrics?.cpuReadyPercent).to.be.within(11.5, 14.5);
    expect(hot?.metrics?.cpuUsagePercent).to.be.closeTo(78, 0.01);
    // esx-02 balloons 10486 MiB of 512 GiB = 2.0 %
    expect(view.hosts.get("host-12")?.metrics?.balloonPercent).to.be.closeTo(2.0, 0.01);
    expect(view.hosts.get("host-12")?.metrics?.memState).to.equal("soft");
    expect(view.hosts.get("host-13")?.metrics).to.deep.include({ swapInKBps: 40, memState: "hard" });
    const vm = view.vms.get("vm-101");
    expect(vm?.biosUuid).to.equal("42260125-1003-40d3-9061-000001f3a5c7");
    expect(vm?.hostId).to.equal("host-11");
    expect(vm?.metrics?.cpuReadyPercent).to.be.within(11.5, 14.5);
    expect(view.polledAtMs).to.equal(r.now.ms);
    expect(r.poller.status()).to.deep.include({ consecutiveFailures: 0, lastSuccessMs: r.now.ms });
  });

  it("given co-stop per VM in the scenario, derives it per vCPU and the host's as their vCPU-weighted mean (cpu.costop.summation)", async () => {
    const onHost = demo.vms.filter((v) => v.host === "host-11" && v.powerState === "POWERED_ON");
    // every other VM at 6 %, the rest at 2 %: the host's is sum(costop x vCPUs) / sum(vCPUs)
    const costopOf = (i: number) => (i % 2 === 0 ? 6 : 2);
    const scenario: Scenario = {
      ...demo,
      vms: demo.vms.map((v) => {
        const i = onHost.indexOf(v);
        return i < 0 ? v : { ...v, metrics: { ...v.metrics, costopPercent: costopOf(i) } };
      }),
    };
    const want = onHost.reduce((s, v, i) => s + costopOf(i) * v.vcpus, 0) / onHost.reduce((s, v) => s + v.vcpus, 0);
    // The co-stop rule on: without its threshold its counter is not asked for (see "the counters it asks vCenter for").
    r = await rig(scenario, { thresholds: { cpuCostopPercent: 5 } });
    await r.poller.pollOnce();
    const view = r.poller.latest();
    expect(onHost.length).to.be.greaterThan(1);
    expect(view.vms.get(onHost[0]!.id)?.metrics?.cpuCostopPercent).to.be.closeTo(6, 1e-9);
    expect(view.vms.get(onHost[1]!.id)?.metrics?.cpuCostopPercent).to.be.closeTo(2, 1e-9);
    expect(view.hosts.get("host-11")?.metrics?.cpuCostopPercent).to.be.closeTo(want, 1e-9);
  });

  describe("the counters it asks vCenter for", () => {
    // Every counter of the catalogue whose metric some rule that is always on, the scores or prediction read.
    const ALWAYS = [
      "cpu.ready.summation",
      "cpu.usage.average",
      "mem.state.latest",
      "mem.swapinRate.average",
      "mem.swapped.average",
      "mem.usage.average",
      "mem.vmmemctl.average",
    ];
    const cases: Array<{ name: string; thresholds: Partial<ThresholdPolicy>; want: string[] }> = [
      { name: "given thresholds.cpuCostopPercent unset (the default), never asks for cpu.costop.summation", thresholds: {}, want: ALWAYS },
      {
        name: "given thresholds.cpuCostopPercent set, asks for cpu.costop.summation too",
        thresholds: { cpuCostopPercent: 5 },
        want: [...ALWAYS, "cpu.costop.summation"].sort(),
      },
    ];
    for (const api of ["vijson", "soap"] as const) {
      for (const c of cases) {
        it(`${c.name} (${api}, real-time poll and history warm start)`, async () => {
          r = await rig(demo, { vcenter: { api }, thresholds: c.thresholds, prediction: true });
          await r.poller.pollOnce();
          const realTimeQueries = r.mock.controls.stats().queryPerfCalls;
          await r.poller.historySettled();
          const stats = r.mock.controls.stats();
          expect(realTimeQueries).to.be.greaterThan(0);
          expect(stats.queryPerfCalls, "the warm start's history queries").to.be.greaterThan(realTimeQueries);
          expect([...stats.queriedCounters].sort()).to.deep.equal(c.want);
        });
      }
    }
  });

  it("given expired sessions, logs in again once per API and the poll still succeeds", async () => {
    r = await rig(demo);
    await r.poller.pollOnce();
    r.mock.controls.expireAllSessions();
    await r.poller.pollOnce();
    const stats = r.mock.controls.stats();
    expect(stats.logins).to.deep.equal({ automation: 2, viJson: 2, soap: 0 });
    expect(stats.unauthorizedServed).to.be.greaterThan(0);
    expect(await metricValue(r.registry, "hvx_vcenter_relogins_total", { api: "automation" })).to.equal(1);
    expect(await metricValue(r.registry, "hvx_vcenter_relogins_total", { api: "vijson" })).to.equal(1);
    expect(r.poller.status().consecutiveFailures).to.equal(0);
  });

  it("given VI/JSON answering NotAuthenticated with 401, re-logs in too", async () => {
    r = await rig(demo);
    r.mock.controls.setFaults({ viNotAuthenticatedStatus: 401 });
    await r.poller.pollOnce();
    r.mock.controls.expireAllSessions();
    await r.poller.pollOnce();
    expect(r.mock.controls.stats().logins.viJson).to.equal(2);
  });

  it("given 400 VMs, never sends more than 256 metrics in one QueryPerf", async () => {
    r = await rig(generateScenario({ hosts: 20, vmsPerHost: 20, seed: 7 }));
    await r.poller.pollOnce();
    const stats = r.mock.controls.stats();
    // 400 VMs x 3 + 20 hosts x 6 = 1320 metrics -> at least 6 queries
    expect(stats.maxMetricsInOneQuery).to.be.at.most(256).and.greaterThan(0);
    expect(stats.queryPerfCalls).to.be.at.least(6);
    expect(r.poller.latest().vms.size).to.equal(400);
    const withReady = [...r.poller.latest().vms.values()].filter((v) => v.metrics?.cpuReadyPercent !== undefined);
    expect(withReady.length).to.equal(400);
  });

  it("given a VM moved to another host, re-maps it on the next poll and fetches its BIOS UUID only once", async () => {
    r = await rig(demo);
    await r.poller.pollOnce();
    r.mock.controls.moveVm("vm-101", "host-16");
    await r.poller.pollOnce();
    const view = r.poller.latest();
    expect(view.vms.get("vm-101")?.hostId).to.equal("host-16");
    expect(view.hosts.get("host-16")?.vmIds).to.include("vm-101");
    expect(view.hosts.get("host-11")?.vmIds).to.not.include("vm-101");
    const fetches = r.mock.controls.stats().vmDetailFetches;
    expect(Object.values(fetches).every((n) => n === 1)).to.equal(true);
    expect(Object.keys(fetches).length).to.equal(view.vms.size);
  });

  it("given vcenter.clusters, polls only those clusters' hosts", async () => {
    r = await rig(generateScenario({ hosts: 40, vmsPerHost: 1 }), { vcenter: { clusters: ["bench-02"] } });
    await r.poller.pollOnce();
    const hosts = [...r.poller.latest().hosts.values()];
    expect(hosts.length).to.equal(8);
    expect(hosts.every((h) => h.clusterName === "bench-02")).to.equal(true);
  });

  it("given two concurrent pollOnce calls, runs one cycle", async () => {
    r = await rig(demo);
    const a = r.poller.pollOnce();
    const b = r.poller.pollOnce();
    expect(a).to.equal(b);
    await Promise.all([a, b]);
    expect(r.mock.controls.stats().requestsByRoute["GET /api/vcenter/cluster"]).to.equal(1);
  });

  it("given vCenter answering 503, rejects, keeps the last good data, records the failure and backs off", async () => {
    r = await rig(demo);
    await r.poller.pollOnce();
    const intervalMs = r.poller.nextDelayMs();
    r.mock.controls.setFaults({ fixedStatus: 503 });
    r.now.ms += 20_000;
    const err = await r.poller.pollOnce().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterHttpError);
    expect(r.poller.latest().hosts.size).to.equal(13);
    expect(r.poller.status().consecutiveFailures).to.equal(1);
    expect(r.poller.status().lastError).to.match(/503/);
    const first = r.poller.nextDelayMs();
    await r.poller.pollOnce().catch(() => undefined);
    const second = r.poller.nextDelayMs();
    expect(intervalMs).to.equal(20_000);
    expect(second).to.be.greaterThan(first);
    expect(await metricValue(r.registry, "hvx_vcenter_polls_total", { outcome: "failure", error_kind: "http" })).to.equal(2);
    expect(await metricValue(r.registry, "hvx_vcenter_polls_total", { outcome: "success" })).to.equal(1);
    expect(await metricValue(r.registry, "hvx_vcenter_data_age_seconds")).to.equal(20);
    r.mock.controls.setFaults({ fixedStatus: null });
    await r.poller.pollOnce();
    expect(r.poller.status().consecutiveFailures).to.equal(0);
    expect(r.poller.nextDelayMs()).to.equal(20_000);
  });

  it("given garbage bodies, rejects with a response error and keeps the last good data", async () => {
    r = await rig(demo);
    await r.poller.pollOnce();
    r.mock.controls.setFaults({ malformedRate: 1 });
    r.mock.controls.expireAllSessions();
    const err = await r.poller.pollOnce().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterResponseError);
    expect(r.poller.latest().hosts.size).to.equal(13);
    expect(await metricValue(r.registry, "hvx_vcenter_polls_total", { outcome: "failure", error_kind: "response" })).to.equal(1);
  });

  it("given vCenter down (closed port), rejects with a network error and keeps the last good data", async () => {
    r = await rig(demo);
    await r.poller.pollOnce();
    await r.mock.close();
    const err = await r.poller.pollOnce().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(VcenterNetworkError);
    expect((err as VcenterNetworkError).code).to.be.oneOf(["ECONNREFUSED", "ECONNRESET"]);
    const again = await r.poller.pollOnce().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((again as VcenterNetworkError).code).to.equal("ECONNREFUSED");
    expect(r.poller.status().consecutiveFailures).to.equal(2);
    expect(r.poller.latest().hosts.size).to.equal(13);
    expect(await metricValue(r.registry, "hvx_vcenter_requests_total", { api: "automation", outcome: "network_error" })).to.be.greaterThan(
      0,
    );
  });

  it("given start(), polls at once; after stop(), schedules nothing more", async () => {
    r = await rig(demo, { vcenter: { pollIntervalSeconds: 0.05 } });
    r.poller.start();
    r.poller.start();
    for (let i = 0; i < 100 && r.mock.controls.stats().requestsByRoute["GET /api/vcenter/cluster"] === undefined; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (let i = 0; i < 100 && r.poller.status().lastSuccessMs === undefined; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(r.poller.latest().hosts.size).to.equal(13);
    await r.poller.stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const after = r.mock.controls.stats().requestsByRoute["GET /api/vcenter/cluster"];
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(r.mock.controls.stats().requestsByRoute["GET /api/vcenter/cluster"]).to.equal(after);
  });

  it("given data older than 10x maxMetricAge, drops it", async () => {
    r = await rig(demo);
    await r.poller.pollOnce();
    r.now.ms += 1199_000;
    expect(r.poller.latest().hosts.size).to.equal(13);
    r.now.ms += 2_000;
    expect(r.poller.latest().hosts.size).to.equal(0);
  });

  it("given a wrong password, fails with an auth error that does not contain the password", async () => {
    const mock = await startMockVcenter({ scenario: demo });
    try {
      const vcenter = configSchema.parse({ vcenter: { url: mock.url, username: USER, password: "s3cret-Wr0ng" } }).vcenter;
      const poller = new VcenterPoller({
        vcenter,
        maxMetricAgeSeconds: 120,
        thresholds: DEFAULT_POLICY.thresholds,
        log: silentLogger(),
        ...buildVcenterParts({ vcenter, log: silentLogger(), registry: new Registry() }),
      });
      const err = await poller.pollOnce().then(
        () => undefined,
        (e: unknown) => e,
      );
      await poller.stop();
      expect(err).to.be.instanceOf(VcenterAuthError);
      const everything = inspect(err, { depth: 20, showHidden: true }) + JSON.stringify(err) + String(poller.status().lastError);
      expect(everything).to.not.include("s3cret-Wr0ng");
      expect(everything).to.not.include(Buffer.from(`${USER}:s3cret-Wr0ng`).toString("base64"));
    } finally {
      await mock.close();
    }
  });

  it("given no credentials, refuses to start with a clear error", () => {
    const vcenter = configSchema.parse({ vcenter: { url: "http://127.0.0.1:1" } }).vcenter;
    const parts = buildVcenterParts({ vcenter, log: silentLogger(), registry: new Registry() });
    expect(
      () => new VcenterPoller({ vcenter, maxMetricAgeSeconds: 120, thresholds: DEFAULT_POLICY.thresholds, log: silentLogger(), ...parts }),
    ).to.throw(VcenterConfigError, /credentials missing/);
  });

  it("never writes the password to the logs through expiry, failures and recovery", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    r = await rig(demo, { log: createLogger("trace", sink) });
    await r.poller.pollOnce();
    r.mock.controls.expireAllSessions();
    await r.poller.pollOnce();
    r.mock.controls.setFaults({ fixedStatus: 500 });
    await r.poller.pollOnce().catch(() => undefined);
    expect(lines.length).to.be.greaterThan(0);
    const text = lines.join("");
    expect(text).to.not.include(PASSWORD);
    expect(text).to.not.include(Buffer.from(`${USER}:${PASSWORD}`).toString("base64"));
  });
});
