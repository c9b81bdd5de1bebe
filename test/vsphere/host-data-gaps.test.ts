import { expect } from "chai";
import { Registry } from "prom-client";
import { startMockVcenter, validateScenario, type MockVcenterHandle, type ScenarioInput } from "../../mocks/vcenter/index.js";
import { configSchema } from "../../src/config/schema.js";
import { silentLogger } from "../../src/observability/logger.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { buildDebugHosts } from "../../src/server/debug-view.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { VcenterPoller } from "../../src/vsphere/vcenter-poller.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

/**
 * Issue 29 §6, end to end: the mock vCenter answers as a real one does, the production poller
 * builds the view, and the production placement and /debug code judge it.
 */
const T0 = Date.UTC(2026, 10, 29, 10, 0, 7);
const MAX_AGE_S = 120;
const policy = configSchema.parse({});
const pod = { namespace: "payments", name: "api-1", ownerKinds: ["ReplicaSet"], annotations: {} };

/** Two quiet hosts with one node VM each (ready 1 %, no balloon); esx-01 fully measured. */
const SCENARIO: ScenarioInput = {
  clusters: [{ id: "domain-c8", name: "prod" }],
  hosts: [1, 2].map((n) => ({
    id: `host-${n}`,
    name: `esx-0${n}`,
    cluster: "domain-c8",
    cpuCores: 32,
    cpuMhz: 2600,
    memoryMiB: 524288,
    metrics: { cpuUsagePercent: 20, memUsagePercent: 30 },
  })),
  vms: [1, 2].map((n) => ({
    id: `vm-${n}`,
    name: `k8s-worker-0${n}`,
    biosUuid: `4226000${n}-0000-4000-8000-00000000000${n}`,
    vcpus: 8,
    memoryMiB: 32768,
    host: `host-${n}`,
    metrics: { readyPercent: 1 },
  })),
};
const NODES = [1, 2].map((n) => ({ name: `k8s-worker-0${n}`, providerID: `vsphere://4226000${n}-0000-4000-8000-00000000000${n}` }));

describe("host data gaps against the mock vCenter (issue 29 §6)", function () {
  this.timeout(15000);
  let mock: MockVcenterHandle | undefined;
  let poller: VcenterPoller | undefined;
  const now = { ms: T0 };

  async function start(): Promise<{ mock: MockVcenterHandle; poller: VcenterPoller }> {
    now.ms = T0;
    mock = await startMockVcenter({ scenario: validateScenario(SCENARIO), clock: () => now.ms });
    const vcenter = configSchema.parse({
      vcenter: { url: mock.url, username: "administrator@vsphere.local", password: "hvx-demo" },
    }).vcenter;
    const log = silentLogger();
    poller = new VcenterPoller({
      vcenter,
      maxMetricAgeSeconds: MAX_AGE_S,
      thresholds: DEFAULT_POLICY.thresholds,
      log,
      ...buildVcenterParts({ vcenter, log, registry: new Registry() }),
      clock: () => now.ms,
      random: () => 1,
    });
    return { mock, poller };
  }

  afterEach(async () => {
    await poller?.stop();
    await mock?.close().catch(() => undefined);
    poller = undefined;
    mock = undefined;
  });

  const ctx = (p: VcenterPoller) => ({ inventory: p.latest(), policy, nowMs: now.ms });
  const debugHost = (p: VcenterPoller, id: string) =>
    buildDebugHosts(p.latest(), policy, now.ms, p.status()).hosts.find((h) => h.id === id);

  for (const mode of ["omitted", "minus_one"] as const) {
    describe(`a host whose own counters vCenter answers ${mode === "omitted" ? "without series" : "as -1"}`, () => {
      it("given quiet VMs reporting ready and balloon, has no host sample: unknown in /debug and the unknown score, not 10", async () => {
        const r = await start();
        r.mock.controls.setFaults({ hostCountersMissing: { "host-2": mode } });
        await r.poller.pollOnce();
        const view = r.poller.latest();
        expect(view.vms.get("vm-2")?.metrics?.cpuReadyPercent).to.equal(1);
        expect(view.hosts.get("host-2")?.metrics).to.equal(undefined);
        const esx02 = debugHost(r.poller, "host-2")!;
        expect([esx02.heat, esx02.ageSeconds, esx02.stale]).to.deep.equal([
          "unknown",
          null,
          "ESXi host esx-02 (host-2): no host-level metrics sample (or none of its counters)",
        ]);
        expect(debugHost(r.poller, "host-1")!.heat).to.equal("cool");
        // esx-01, fully measured: 0.4 x (1 - 1/10) + 0.3 x (1 - 20/90) + 0.2 x (1 - 30/95) + 0.1 x 1 = 0.83 -> 5 + round(4.15) = 9
        // esx-02 scored 10 before (ready 1 % and balloon 0 from its VM alone: 0.46 / 0.5 = 0.92 -> 5 + round(4.6))
        const scores = prioritizeNodes(pod, NODES, ctx(r.poller)).map((s) => s.score);
        expect(scores).to.deep.equal([9, policy.scoring.unknownScore]);
      });

      it("given its node VM at 20 % ready, the VM's own rule still rejects that node; the host stays unknown", async () => {
        const r = await start();
        r.mock.controls.setFaults({ hostCountersMissing: { "host-2": mode } });
        r.mock.controls.setVmMetric("vm-2", "readyPercent", 20);
        await r.poller.pollOnce();
        const out = filterNodes(pod, NODES, ctx(r.poller));
        expect(out.decisions.map((d) => [d.verdict, d.unresolvable])).to.deep.equal([
          ["pass", false],
          ["reject", true],
        ]);
        const esx02 = debugHost(r.poller, "host-2")!;
        expect([esx02.heat, esx02.vms[0]!.heat]).to.deep.equal(["unknown", "hot"]);
      });
    });
  }

  describe("a host whose summary keeps failing", () => {
    it("given it failing past maxMetricAgeSeconds, stays in /debug/hosts with its last data, stale and its lastError", async () => {
      const r = await start();
      await r.poller.pollOnce();
      const last = r.poller.latest().hosts.get("host-2")!;
      r.mock.controls.setFaults({ hostFaults: { "host-2": "summary" } });
      for (let i = 0; i < 8; i += 1) {
        now.ms += 20_000;
        await r.poller.pollOnce();
      }
      // 160 s after its last good read: past maxMetricAgeSeconds (120)
      expect(r.poller.latest().hosts.get("host-2")).to.equal(last);
      const esx02 = debugHost(r.poller, "host-2")!;
      expect(esx02.heat).to.equal("unknown");
      expect(esx02.metrics).to.deep.equal(last.metrics);
      expect(esx02.vms.map((v) => v.id)).to.deep.equal(["vm-2"]);
      expect(esx02.stale).to.equal("ESXi host esx-02 (host-2): vCenter inventory read 160s ago, older than 120s");
      expect(esx02.lastError).to.include({ reason: "summary", consecutiveFailures: 8 });
      // its node gets no opinion (the unknown score), as before; the other host is judged as usual
      const scores = prioritizeNodes(pod, NODES, ctx(r.poller)).map((s) => s.score);
      expect(scores).to.deep.equal([9, policy.scoring.unknownScore]);
    });

    it("given it removed from vCenter's inventory while failing, disappears from /debug/hosts and its error with it", async () => {
      const r = await start();
      await r.poller.pollOnce();
      r.mock.controls.setFaults({ hostFaults: { "host-2": "summary" } });
      now.ms += 20_000;
      await r.poller.pollOnce();
      expect(debugHost(r.poller, "host-2")?.lastError).to.include({ reason: "summary" });
      r.mock.controls.removeHost("host-2");
      now.ms += 20_000;
      await r.poller.pollOnce();
      expect(debugHost(r.poller, "host-2")).to.equal(undefined);
      expect(r.poller.latest().vms.has("vm-2")).to.equal(false);
      expect(r.poller.status().hostErrors).to.equal(undefined);
    });
  });
});
