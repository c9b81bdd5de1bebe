import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
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
import { createLogger, silentLogger, type Logger } from "../../src/observability/logger.js";
import { assessHost } from "../../src/placement/assess-host.js";
import { buildDebugHosts } from "../../src/server/debug-view.js";
import { VcenterAuthError } from "../../src/vsphere/vcenter-auth-error.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { VcenterPoller, optionInteger } from "../../src/vsphere/vcenter-poller.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const USER = "administrator@vsphere.local";
const PASSWORD = "hvx-demo";
const T0 = Date.UTC(2026, 10, 29, 10, 0, 7);
const policy = configSchema.parse({});
const LOGIN_ROUTES = { automation: "POST /api/session", vijson: "POST /sdk/vim25/:release/SessionManager/:moId/Login" };

interface Rig {
  mock: MockVcenterHandle;
  poller: VcenterPoller;
  registry: Registry;
  now: { ms: number };
}

/** The mock and the poller share one injected clock; the mock's own clock may run off it (faults.clockOffsetSeconds). */
async function rig(
  scenario: Scenario,
  opts: { vcenter?: Record<string, unknown>; log?: Logger; credentialFiles?: { username?: string; password?: string } } = {},
): Promise<Rig> {
  const now = { ms: T0 };
  const mock = await startMockVcenter({ scenario, clock: () => now.ms });
  const registry = new Registry();
  const vcenter = configSchema.parse({ vcenter: { url: mock.url, username: USER, password: PASSWORD, ...opts.vcenter } }).vcenter;
  const log = opts.log ?? silentLogger();
  const poller = new VcenterPoller({
    vcenter,
    maxMetricAgeSeconds: 120,
    thresholds: DEFAULT_POLICY.thresholds,
    log,
    ...buildVcenterParts({ vcenter, log, registry }),
    clock: () => now.ms,
    random: () => 1,
    ...(opts.credentialFiles ? { credentialFiles: opts.credentialFiles } : {}),
  });
  return { mock, poller, registry, now };
}

async function metricValue(registry: Registry, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return undefined;
  const data = await metric.get();
  return data.values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))?.value;
}

function logSink(): { log: Logger; lines: () => Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      raw.push(String(chunk));
      done();
    },
  });
  return {
    log: createLogger("debug", sink),
    lines: () =>
      raw
        .join("")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe("VcenterPoller hardening against the mock vCenter", function () {
  this.timeout(15000);
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

  describe("per-host isolation", () => {
    const reasons: Array<"summary" | "vm_list" | "perf"> = ["summary", "vm_list", "perf"];
    for (const reason of reasons) {
      it(`given esx-02's ${reason} failing, publishes the other twelve hosts, keeps esx-02's previous entry and reports it`, async () => {
        r = await rig(demo);
        await r.poller.pollOnce();
        const before = r.poller.latest().hosts.get("host-12")!;
        r.now.ms += 20_000;
        r.mock.controls.setFaults({ hostFaults: { "host-12": reason } });
        await r.poller.pollOnce();
        const view = r.poller.latest();
        expect(view.polledAtMs).to.equal(r.now.ms);
        expect(view.hosts.get("host-12")).to.equal(before);
        for (const id of demo.hosts.map((h) => h.id).filter((id) => id !== "host-12")) {
          expect(view.hosts.get(id)!.metrics!.sampledAtMs, id).to.be.greaterThan(before.metrics!.sampledAtMs);
        }
        const status = r.poller.status();
        expect(status.consecutiveFailures).to.equal(0);
        expect(status.hostErrors?.["host-12"]).to.include({ reason, consecutiveFailures: 1 });
        expect(await metricValue(r.registry, "hvx_vcenter_host_failures_total", { reason })).to.equal(1);
        expect(await metricValue(r.registry, "hvx_vcenter_polls_total", { outcome: "success" })).to.equal(2);
        const debug = buildDebugHosts(view, policy, r.now.ms, status);
        const esx02 = debug.hosts.find((h) => h.id === "host-12")!;
        expect(esx02.lastError).to.include({ reason });
        expect(debug.hosts.find((h) => h.id === "host-11")!.lastError).to.equal(null);
      });
    }

    it("given esx-02 failing, only esx-02 goes stale, then its whole entry past maxMetricAge (still listed); once it answers again it is fresh", async () => {
      r = await rig(demo);
      await r.poller.pollOnce();
      r.mock.controls.setFaults({ hostFaults: { "host-12": "summary" } });
      for (let i = 0; i < 6; i += 1) {
        r.now.ms += 20_000;
        await r.poller.pollOnce();
      }
      // 120 s after its last good read: still kept, and its samples (older than that) are stale
      let view = r.poller.latest();
      expect(assessHost(view.hosts.get("host-12")!, undefined, policy.thresholds, r.now.ms).staleness?.code).to.equal("metrics_stale");
      expect(assessHost(view.hosts.get("host-11")!, undefined, policy.thresholds, r.now.ms).staleness).to.equal(undefined);
      r.now.ms += 20_000;
      await r.poller.pollOnce();
      // past maxMetricAge: no opinion on it at all (state rules included); still listed with its last data and reported
      view = r.poller.latest();
      expect(assessHost(view.hosts.get("host-12")!, undefined, policy.thresholds, r.now.ms).staleness?.code).to.equal("inventory_stale");
      expect(view.vms.has("vm-103")).to.equal(true);
      expect(view.hosts.size).to.equal(13);
      expect(r.poller.status().hostErrors?.["host-12"]?.consecutiveFailures).to.equal(7);
      r.mock.controls.setFaults({ hostFaults: {} });
      r.now.ms += 20_000;
      await r.poller.pollOnce();
      expect(r.poller.status().hostErrors).to.equal(undefined);
      expect(assessHost(r.poller.latest().hosts.get("host-12")!, undefined, policy.thresholds, r.now.ms).staleness).to.equal(undefined);
    });
  });

  describe("vpxd.stats.maxQueryMetrics", () => {
    it("given the setting at 64, reads it at start-up and never sends a larger QueryPerf", async () => {
      r = await rig({
        ...generateScenario({ hosts: 10, vmsPerHost: 20, seed: 3 }),
        advancedSettings: { "config.vpxd.stats.maxQueryMetrics": 64 },
      });
      await r.poller.pollOnce();
      const stats = r.mock.controls.stats();
      expect(stats.maxMetricsInOneQuery).to.be.at.most(64).and.greaterThan(0);
      expect(r.poller.status().maxQueryMetrics).to.equal(64);
      expect([...r.poller.latest().vms.values()].every((v) => v.metrics?.cpuReadyPercent !== undefined)).to.equal(true);
    });

    it("given the setting as text ('100', as the vSphere Client stores it), uses 100", async () => {
      r = await rig({ ...demo, advancedSettings: { "config.vpxd.stats.maxQueryMetrics": "100" } });
      await r.poller.pollOnce();
      expect(r.poller.status().maxQueryMetrics).to.equal(100);
    });

    it("given no setting, keeps 256", async () => {
      r = await rig(demo);
      await r.poller.pollOnce();
      expect(r.poller.status().maxQueryMetrics).to.equal(256);
    });

    it("given an administrator lowering it to 50 while hvx runs, halves on RestrictedByAdministrator and keeps every sample", async () => {
      r = await rig(generateScenario({ hosts: 10, vmsPerHost: 20, seed: 3 }));
      await r.poller.pollOnce();
      r.mock.controls.setAdvancedSetting("config.vpxd.stats.maxQueryMetrics", 50);
      r.now.ms += 20_000;
      await r.poller.pollOnce();
      expect(r.poller.status().maxQueryMetrics).to.be.at.most(50);
      expect(r.poller.status().hostErrors).to.equal(undefined);
      const vms = [...r.poller.latest().vms.values()];
      expect(vms.every((v) => v.metrics?.sampledAtMs !== undefined && r!.now.ms - v.metrics.sampledAtMs < 40_000)).to.equal(true);
      // the next cycle sends only queries that fit
      const queriesBefore = r.mock.controls.stats().queryPerfCalls;
      r.now.ms += 20_000;
      await r.poller.pollOnce();
      const sent = r.mock.controls.stats().queryPerfCalls - queriesBefore;
      // 10 hosts x 6 + 200 VMs x 3 (co-stop off by default: not asked for) = 660 metrics in queries of at most 32 (256 -> 128 -> 64 -> 32)
      expect(sent).to.equal(Math.ceil(660 / r.poller.status().maxQueryMetrics!));
    });

    it("reads OptionValue integers as vCenter wraps them", () => {
      expect(optionInteger({ _typeName: "int", _value: 64 })).to.equal(64);
      expect(optionInteger({ _typeName: "long", _value: 64 })).to.equal(64);
      expect(optionInteger({ _typeName: "string", _value: " 64 " })).to.equal(64);
      expect(optionInteger({ _typeName: "string", _value: "lots" })).to.equal(undefined);
      expect(optionInteger(null)).to.equal(undefined);
    });
  });

  describe("no account lockout", () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), "hvx-creds-"));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("given a wrong password for 60 s of polling, tries at most one login per API, counts it and says so in /debug/hosts", async () => {
      r = await rig(demo, { vcenter: { password: "wrong-Pa55", pollIntervalSeconds: 5 } });
      for (let t = 0; t <= 60; t += 5) {
        const err = await r.poller.pollOnce().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, `t=${t}`).to.be.instanceOf(VcenterAuthError);
        r.now.ms += 5_000;
      }
      const routes = r.mock.controls.stats().requestsByRoute;
      expect(routes[LOGIN_ROUTES.automation] ?? 0).to.be.at.most(1);
      expect(routes[LOGIN_ROUTES.vijson] ?? 0).to.be.at.most(1);
      expect((routes[LOGIN_ROUTES.automation] ?? 0) + (routes[LOGIN_ROUTES.vijson] ?? 0)).to.equal(1);
      const counted = (await metricValue(r.registry, "hvx_vcenter_auth_failures_total", { api: "automation" })) ?? 0;
      expect(counted + ((await metricValue(r.registry, "hvx_vcenter_auth_failures_total", { api: "vijson" })) ?? 0)).to.equal(1);
      const status = r.poller.status();
      expect(status.authSuspended?.retryAfterMs).to.equal(T0 + 300_000);
      expect(status.lastError).to.match(/logins suspended until .*vcenter\.authRetrySeconds/);
      expect(r.poller.nextDelayMs()).to.equal(5_000);
      const debug = buildDebugHosts(r.poller.latest(), policy, r.now.ms, status);
      expect(JSON.stringify(debug.source)).to.include("authSuspended").and.to.not.include("wrong-Pa55");
    });

    it("given vcenter.authRetrySeconds passed, tries once more", async () => {
      r = await rig(demo, { vcenter: { password: "wrong", authRetrySeconds: 60 } });
      await r.poller.pollOnce().catch(() => undefined);
      r.now.ms += 59_000;
      await r.poller.pollOnce().catch(() => undefined);
      const attempts = () => Object.values(LOGIN_ROUTES).reduce((n, k) => n + (r!.mock.controls.stats().requestsByRoute[k] ?? 0), 0);
      expect(attempts()).to.equal(1);
      r.now.ms += 1_000;
      await r.poller.pollOnce().catch(() => undefined);
      expect(attempts()).to.equal(2);
    });

    it("given the credential files change, logs in again at once and polls", async () => {
      const userFile = join(dir, "username");
      const passFile = join(dir, "password");
      writeFileSync(userFile, `${USER}\n`);
      writeFileSync(passFile, "wrong\n");
      r = await rig(demo, { vcenter: { password: "wrong" }, credentialFiles: { username: userFile, password: passFile } });
      await r.poller.pollOnce().catch(() => undefined);
      r.now.ms += 5_000;
      await r.poller.pollOnce().catch(() => undefined);
      expect(r.poller.status().authSuspended).to.not.equal(undefined);
      writeFileSync(passFile, `${PASSWORD}\n`);
      r.now.ms += 5_000;
      await r.poller.pollOnce();
      expect(r.poller.status().authSuspended).to.equal(undefined);
      expect(r.poller.latest().hosts.size).to.equal(13);
    });

    it("given an unreadable credential file mid-rotation, keeps the credentials in use", async () => {
      const passFile = join(dir, "password");
      writeFileSync(passFile, PASSWORD);
      r = await rig(demo, { credentialFiles: { password: passFile } });
      await r.poller.pollOnce();
      rmSync(passFile);
      r.mock.controls.expireAllSessions();
      r.now.ms += 20_000;
      await r.poller.pollOnce();
      expect(r.poller.status().consecutiveFailures).to.equal(0);
    });
  });

  describe("slow vCenter", () => {
    it("given answers slower than vcenter.requestTimeoutSeconds, fails the cycle within the timeout, keeps the last data and backs off", async () => {
      r = await rig(demo, { vcenter: { requestTimeoutSeconds: 0.3 } });
      await r.poller.pollOnce();
      r.mock.controls.setFaults({ latencyMs: 1_500 });
      const started = Date.now();
      const err = await r.poller.pollOnce().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(Date.now() - started).to.be.below(1_400);
      expect((err as Error).message).to.match(/no answer within 300 ms/);
      expect(r.poller.latest().hosts.size).to.equal(13);
      await r.poller.pollOnce().catch(() => undefined);
      expect(r.poller.status().consecutiveFailures).to.equal(2);
      expect(r.poller.nextDelayMs()).to.be.greaterThan(20_000);
      r.mock.controls.setFaults({ latencyMs: 50 });
      await r.poller.pollOnce();
      expect(r.poller.status().consecutiveFailures).to.equal(0);
    });
  });

  describe("shutdown", () => {
    it("logs out of both sessions (Automation DELETE /api/session and VI/JSON Logout)", async () => {
      r = await rig(demo);
      await r.poller.pollOnce();
      await r.poller.stop();
      expect(r.mock.controls.stats().logouts).to.deep.equal({ automation: 1, viJson: 1, soap: 0 });
    });

    it("given vCenter gone at shutdown, stop() still resolves", async () => {
      r = await rig(demo);
      await r.poller.pollOnce();
      await r.mock.close();
      const started = Date.now();
      await r.poller.stop();
      expect(Date.now() - started).to.be.below(3_000);
    });
  });

  describe("one clock", () => {
    for (const offsetS of [600, -600]) {
      it(`given vCenter's clock ${offsetS > 0 ? "10 minutes ahead" : "10 minutes behind"}, hot hosts stay rejected and no data is called stale`, async () => {
        const sink = logSink();
        r = await rig(demo, { log: sink.log });
        r.mock.controls.setFaults({ clockOffsetSeconds: offsetS });
        for (let i = 0; i < 3; i += 1) {
          await r.poller.pollOnce();
          r.now.ms += 20_000;
        }
        r.now.ms -= 20_000;
        const view = r.poller.latest();
        for (const host of view.hosts.values()) {
          const v = assessHost(host, undefined, policy.thresholds, r.now.ms);
          expect(v.staleness, `${host.name} stale`).to.equal(undefined);
          expect(r.now.ms - host.metrics!.sampledAtMs, host.name).to.be.within(0, 40_000);
        }
        expect(assessHost(view.hosts.get("host-11")!, undefined, policy.thresholds, r.now.ms).heat).to.equal("hot");
        expect(await metricValue(r.registry, "hvx_vcenter_clock_offset_seconds")).to.equal(offsetS);
        expect(r.poller.status().clockOffsetSeconds).to.equal(offsetS);
        const warnings = sink.lines().filter((l) => String(l["msg"]).includes("clock differs"));
        expect(warnings.length).to.equal(1);
      });
    }

    it("given the offset back under 30 s, says so once", async () => {
      const sink = logSink();
      r = await rig(demo, { log: sink.log });
      r.mock.controls.setFaults({ clockOffsetSeconds: 45 });
      await r.poller.pollOnce();
      r.mock.controls.setFaults({ clockOffsetSeconds: 2 });
      await r.poller.pollOnce();
      await r.poller.pollOnce();
      expect(sink.lines().filter((l) => String(l["msg"]).includes("agrees with the local clock")).length).to.equal(1);
      expect(r.poller.status().clockOffsetSeconds).to.equal(2);
    });
  });
});
