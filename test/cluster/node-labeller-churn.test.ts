import { CoreV1Api } from "@kubernetes/client-node";
import { expect } from "chai";
import { startFakeKubeApiserver, sampleNode, type FakeKubeApiserver } from "../../mocks/kube-apiserver/index.js";
import { ClusterInformer } from "../../src/cluster/cluster-informer.js";
import { makeTimedApiClient } from "../../src/cluster/timed-api-client.js";
import { NodeLabeller } from "../../src/cluster/node-labeller.js";
import type { InventoryView } from "../../src/model/inventory.js";
import { silentLogger } from "../../src/observability/logger.js";
import { desiredNodeMarks } from "../../src/placement/node-marks.js";
import { eventually } from "../fixtures/eventually.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

/**
 * Issue 8 section 4: every patch of a Node wakes every Node watcher and makes kube-scheduler
 * retry the pods it set aside, so the heat annotation may change only when the host does.
 */
describe("NodeLabeller with frozen vCenter data (no churn)", function () {
  this.timeout(20_000);
  let fake: FakeKubeApiserver;
  let informer: ClusterInformer;
  const UUID = "42267e63-e4e0-c681-b5dd-f69dfa981039";

  beforeEach(async () => {
    fake = await startFakeKubeApiserver({ bookmarkIntervalMs: 100 });
    fake.controls.upsertNode(sampleNode({ name: "k8s-worker-01", biosUuid: UUID }));
    fake.controls.upsertNode(sampleNode({ name: "k8s-worker-02", biosUuid: "42267e63-e4e0-c681-b5dd-000000000002" }));
    fake.controls.upsertNode(sampleNode({ name: "k8s-worker-03", biosUuid: "42267e63-e4e0-c681-b5dd-000000000003" }));
    informer = new ClusterInformer({
      kubeConfig: fake.kubeConfig(),
      listApi: makeTimedApiClient(fake.kubeConfig(), CoreV1Api),
      defaults: { cpuMilli: 1, memoryBytes: 1 },
      log: silentLogger(),
      backoff: { initialMs: 20, maxMs: 100 },
    });
    await informer.start();
  });
  afterEach(async () => {
    await informer.stop();
    await fake.close();
  });

  it("given one poll's data and a clock that moves on, patches each node once in the first round and never again over 10 rounds", async () => {
    // One hot host (ready 14 %), one warm host (usage 85 %), one cool host: the same snapshot every round.
    const inventory: InventoryView = inventoryOf(
      [
        hostView({ id: "host-1", name: "esx-01", metrics: { cpuReadyPercent: 14 } }),
        hostView({ id: "host-2", name: "esx-02", metrics: { cpuUsagePercent: 85 } }),
        hostView({ id: "host-3", name: "esx-03" }),
      ],
      [
        vmView({ id: "vm-1", name: "k8s-worker-01", hostId: "host-1", biosUuid: UUID }),
        vmView({ id: "vm-2", name: "k8s-worker-02", hostId: "host-2", biosUuid: "42267e63-e4e0-c681-b5dd-000000000002" }),
        vmView({ id: "vm-3", name: "k8s-worker-03", hostId: "host-3", biosUuid: "42267e63-e4e0-c681-b5dd-000000000003" }),
      ],
    );
    let nowMs = NOW_MS;
    const api = fake.kubeConfig().makeApiClient(CoreV1Api);
    const l = new NodeLabeller({
      api,
      elector: { isLeader: () => true },
      cluster: informer,
      desired: () => desiredNodeMarks(informer.latest(), inventory, DEFAULT_POLICY, nowMs),
      log: silentLogger(),
    });
    const perRound: string[][] = [];
    for (let round = 0; round < 11; round++) {
      perRound.push([...(await l.reconcileOnce()).patched]);
      if (round === 0)
        await eventually(() => expect(informer.latest().nodes.get("k8s-worker-03")?.annotations["hvx.io/host-heat"]).to.equal("cool"));
      nowMs += 10_000;
    }
    expect(perRound[0]).to.have.members(["k8s-worker-01", "k8s-worker-02", "k8s-worker-03"]);
    expect(perRound.slice(1).flat(), "node patches after the first round").to.deep.equal([]);
    const heat = (n: string) => fake.controls.getNode(n)?.metadata.annotations["hvx.io/host-heat"];
    expect([heat("k8s-worker-01"), heat("k8s-worker-02"), heat("k8s-worker-03")]).to.deep.equal([
      "hot: cpu-ready",
      "warm: cpu-usage",
      "cool",
    ]);
  });
});
