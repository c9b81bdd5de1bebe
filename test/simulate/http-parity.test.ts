import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { MEM_STATES, startMockVcenter, type MockVcenterHandle, type ScenarioInput } from "../../mocks/vcenter/index.js";
import { configSchema } from "../../src/config/schema.js";
import { parseConfig } from "../../src/config/index.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import type { ClusterContext } from "../../src/placement/index.js";
import { buildExtenderApp } from "../../src/server/extender-app.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { buildWorld, type World } from "../../src/simulate/build-world.js";
import { HVX_EXTENDER_WEIGHT, type HvxDecision } from "../../src/simulate/hvx-strategy.js";
import type { Observation } from "../../src/simulate/observation-ring.js";
import { mulberry32 } from "../../src/random/prng.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { selectHost } from "../../src/simulate/strategy.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { VcenterPoller } from "../../src/vsphere/vcenter-poller.js";
import { smallScenario } from "./fixtures.js";

const SEED = 4;

/** The mock vCenter's scenario: the world's hosts and VMs with their ids, sizes and BIOS UUIDs. */
function mockScenarioOf(world: World): ScenarioInput {
  return {
    hosts: world.hosts.ids.map((id, h) => ({
      id,
      name: world.hosts.names[h]!,
      cpuCores: world.hosts.cores[h]!,
      cpuMhz: world.hosts.mhzPerCore[h]!,
      memoryMiB: world.hosts.memoryMiB[h]!,
    })),
    vms: world.vms.ids.map((id, v) => ({
      id,
      name: world.vms.names[v]!,
      biosUuid: world.vms.biosUuids[v]!,
      vcpus: world.vms.vcpus[v]!,
      memoryMiB: world.vms.memoryMiB[v]!,
      host: world.hosts.ids[world.vms.initialHost[v]!]!,
    })),
  };
}

/** Loads one simulated sample into the mock, in its friendly units (it converts back to vCenter's). */
function loadSample(mock: MockVcenterHandle, world: World, obs: Observation): void {
  const c = mock.controls;
  for (let v = 0; v < world.vms.count; v++) {
    const id = world.vms.ids[v]!;
    c.moveVm(id, world.hosts.ids[obs.vmHost[v]!]!);
    c.setVmMetric(id, "readyPercent", (obs.vmReadyMs[v]! / world.vms.vcpus[v]! / 20_000) * 100);
    c.setVmMetric(id, "balloonMiB", obs.vmBalloonKB[v]! / 1024);
    c.setVmMetric(id, "swappedMiB", obs.vmSwappedKB[v]! / 1024);
  }
  for (let h = 0; h < world.hosts.count; h++) {
    const id = world.hosts.ids[h]!;
    c.setHostMetric(id, "cpuUsagePercent", obs.hostCpuUsageFixed[h]! / 100);
    c.setHostMetric(id, "memUsagePercent", obs.hostMemUsageFixed[h]! / 100);
    c.setHostMetric(id, "balloonMiB", obs.hostBalloonKB[h]! / 1024);
    c.setHostMetric(id, "swapInKBps", obs.hostSwapInKBps[h]!);
    c.setHostMetric(id, "memState", MEM_STATES[obs.hostMemState[h]!]!);
    c.setHostState(id, { inMaintenance: obs.hostInMaintenance[h] === 1 });
  }
}

function wirePod(world: World, pod: number) {
  const owner = world.pods.owners[pod]!;
  const [kind, , ownerName] = owner.split("/");
  return {
    metadata: {
      name: world.pods.names[pod],
      namespace: "default",
      uid: `pod-${pod}`,
      ownerReferences: [{ apiVersion: "apps/v1", kind, name: ownerName, uid: `owner-${ownerName}`, controller: true }],
    },
    spec: {
      priority: world.pods.priority[pod],
      containers: [
        {
          name: "app",
          resources: { requests: { cpu: `${world.pods.reqCpuMilli[pod]}m` }, limits: { cpu: `${world.pods.limCpuMilli[pod]}m` } },
        },
      ],
    },
  };
}

describe("simulator parity: direct placement code vs mock vCenter + poller + extender HTTP", function () {
  this.timeout(60_000);
  let mock: MockVcenterHandle;
  let poller: VcenterPoller;
  let server: Server;
  let base: string;
  let mockNowMs = 0;
  let handlerNowMs = 0;
  let cluster: ClusterContext | undefined;
  const world = buildWorld(smallScenario({ durationHours: 1 }));
  const decisions: HvxDecision[] = [];
  // Prediction off on both paths: the simulated hvx learns its load profiles from every
  // sample, this test's poller only from the polls it replays (one per decision step); the
  // prediction path itself is covered by test/placement/predicted-heat.test.ts and the
  // poller's warm-start tests.
  const policy = parseConfig("prediction: { enabled: false }");

  before(async () => {
    simulateStrategy({ world, strategy: "hvx", seed: SEED, policy, hvx: { record: (d) => decisions.push(d) } });
    mockNowMs = world.startMs;
    mock = await startMockVcenter({ scenario: mockScenarioOf(world) as never, clock: () => mockNowMs });
    const registry = new Registry();
    const vcenter = configSchema.parse({
      vcenter: { url: mock.url, username: "administrator@vsphere.local", password: "hvx-demo" },
    }).vcenter;
    const parts = buildVcenterParts({ vcenter, log: silentLogger(), registry });
    poller = new VcenterPoller({
      vcenter,
      maxMetricAgeSeconds: 120,
      thresholds: policy.thresholds,
      log: silentLogger(),
      ...parts,
      clock: () => mockNowMs,
      random: () => 0.5,
    });
    const handlers = createExtenderHandlers({
      source: poller,
      policy,
      metrics: new ExtenderMetrics(registry),
      log: silentLogger(),
      clock: () => handlerNowMs,
      enrich: (ctx) => (cluster ? { ...ctx, cluster } : ctx),
    });
    const app = buildExtenderApp({ handlers, bodyLimitMB: 10 });
    server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, "127.0.0.1", () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await poller?.stop();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await mock?.close();
  });

  const post = async (verb: string, body: unknown) => {
    const res = await fetch(`${base}/${verb}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, verb).to.equal(200);
    return (await res.json()) as Record<string, unknown>;
  };

  it("makes the same filter verdicts, scores and placements over HTTP as in process", async () => {
    const rng = mulberry32(SEED ^ 0x5eed5eed);
    let loadedStep = -1;
    let compared = 0;
    let rejectedSomewhere = 0;
    for (const d of decisions) {
      if (d.observation === undefined) {
        // before the first sample the two paths know different things (no inventory vs no metrics): replay only the tie-break
        if (d.passed.length > 0)
          selectHost(
            d.passed.map((_, i) => i),
            d.passed.map((_, i) => d.defaultScores[i]! + d.extenderScores[i]! * HVX_EXTENDER_WEIGHT * 10),
            rng,
          );
        continue;
      }
      if (d.observation.step !== loadedStep) {
        loadSample(mock, world, d.observation);
        mockNowMs = d.observation.sampledAtMs;
        await poller.pollOnce();
        loadedStep = d.observation.step;
      }
      handlerNowMs = d.nowMs;
      cluster = d.cluster;
      const filtered = await post("filter", { Pod: wirePod(world, d.pod), Nodes: null, NodeNames: d.feasible });
      const passed = (filtered.NodeNames as string[] | null) ?? [];
      expect(passed, `step ${d.step} pod ${d.pod}: filter`).to.deep.equal(d.passed);
      if (passed.length < d.feasible.length) rejectedSomewhere++;
      let chosen: string | undefined;
      if (passed.length > 0) {
        const prioritized = (await post("prioritize", { Pod: wirePod(world, d.pod), Nodes: null, NodeNames: passed })) as unknown as Array<{
          Host: string;
          Score: number;
        }>;
        expect(
          prioritized.map((p) => p.Score),
          `step ${d.step} pod ${d.pod}: prioritize`,
        ).to.deep.equal(d.extenderScores);
        const scores = prioritized.map((p, i) => d.defaultScores[i]! + p.Score * HVX_EXTENDER_WEIGHT * 10);
        chosen =
          passed[
            selectHost(
              passed.map((_, i) => i),
              scores,
              rng,
            )
          ];
      }
      expect(chosen, `step ${d.step} pod ${d.pod}: placement`).to.equal(d.chosen);
      compared++;
    }
    expect(compared).to.be.greaterThan(30);
    // the comparison is only worth something if hvx actually turned nodes away
    expect(rejectedSomewhere).to.be.greaterThan(0);
  });
});
