import { CoreV1Api } from "@kubernetes/client-node";
import { expect } from "chai";
import { Registry } from "prom-client";
import { samplePod, startFakeKubeApiserver, type FakeKubeApiserver, type KubeObject } from "../../mocks/kube-apiserver/index.js";
import { Rebalancer } from "../../src/cluster/rebalancer.js";
import { toPodView, type PodWire } from "../../src/cluster/to-pod-view.js";
import type { ClusterView } from "../../src/model/cluster.js";
import type { InventoryView } from "../../src/model/inventory.js";
import { silentLogger } from "../../src/observability/logger.js";
import { createRebalanceMetrics } from "../../src/observability/rebalance-metrics.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";
import { fleet, HOT, NOW_MS, REBALANCE } from "../rebalance/fixtures.js";

const MIN = 60_000;

describe("Rebalancer against the fake API server", function () {
  this.timeout(10_000);
  let fake: FakeKubeApiserver;
  let leader: boolean;
  let nowMs: number;
  let registry: Registry;
  let inventory: InventoryView;
  let pods: KubeObject[];

  beforeEach(async () => {
    fake = await startFakeKubeApiserver();
    leader = true;
    nowMs = NOW_MS - 11 * MIN;
    registry = new Registry();
    pods = [
      fake.controls.upsertPod(
        samplePod({
          namespace: "payments",
          name: "web-1",
          nodeName: "worker-0",
          cpu: "500m",
          memory: "1Gi",
          owner: { kind: "ReplicaSet", name: "web-5d8f7c9b6" },
          labels: { app: "web" },
        }),
      ),
    ];
    inventory = fleet(10, { 0: HOT }).inventory;
  });
  afterEach(async () => {
    await fake.close();
  });

  /** The cluster as hvx's informer would hold it: the fixture fleet's nodes, with `pods` (as converted by the informer's code). */
  function clusterView(): ClusterView {
    const base = fleet(10, { 0: HOT }).cluster;
    const podsByNode = new Map<string, ReturnType<typeof toPodView>[]>();
    for (const p of pods) {
      const view = toPodView(p as PodWire, { cpuMilli: 100, memoryBytes: 1 }, undefined);
      podsByNode.set(view.nodeName!, [...(podsByNode.get(view.nodeName!) ?? []), view]);
    }
    return { ...base, podsByNode };
  }

  function rebalancer(
    dryRun: boolean,
    over: { identity?: string; maxEvictionsPerHour?: number; maxEvictionsPer100PodHours?: number; api?: CoreV1Api } = {},
  ): Rebalancer {
    const r = new Rebalancer({
      api: over.api ?? fake.kubeConfig().makeApiClient(CoreV1Api),
      elector: { isLeader: () => leader },
      cluster: { latest: clusterView },
      inventory: { latest: () => inventory },
      placement: DEFAULT_POLICY,
      rebalance: {
        ...REBALANCE,
        maxEvictionsPerHour: over.maxEvictionsPerHour ?? REBALANCE.maxEvictionsPerHour,
        maxEvictionsPer100PodHours: over.maxEvictionsPer100PodHours ?? REBALANCE.maxEvictionsPer100PodHours,
      },
      dryRun,
      intervalMs: MIN,
      observeMs: 20_000,
      identity: over.identity ?? "hvx-0-1",
      metrics: createRebalanceMetrics(over.identity === undefined ? registry : new Registry()),
      log: silentLogger(),
      now: () => nowMs,
    });
    r.observe(); // host-0 is hot from 11 min before NOW_MS
    nowMs = NOW_MS;
    return r;
  }

  async function counted(result: string): Promise<number> {
    const m = (await registry.getSingleMetric("hvx_rebalance_evictions_total")!.get()).values.find((v) => v.labels.result === result);
    return m?.value ?? 0;
  }

  it("given dry run, writes an Event on the pod and evicts nothing", async () => {
    const out = await rebalancer(true).cycleOnce();
    expect(out).to.deep.equal([{ pod: "payments/web-1", result: "dry_run" }]);
    expect(fake.controls.getPod("payments", "web-1"), "pod still there").to.not.equal(undefined);
    expect(fake.controls.stats().evictions).to.deep.equal([]);
    const events = fake.controls.events("payments");
    expect(events).to.have.length(1);
    const e = events[0]!;
    expect(e.reason).to.equal("HvxRebalanceDryRun");
    expect(e.involvedObject).to.deep.include({ kind: "Pod", name: "web-1", namespace: "payments", uid: pods[0]!.metadata.uid });
    expect(e.message).to.match(/ESXi host esx-0 \(host-0\) hot for 11 min: cpu ready 20 % >= 10 %; hvx would place it on worker-\d/);
    expect(e.eventTime).to.match(/\.\d{6}Z$/, "MicroTime");
    expect(await counted("dry_run")).to.equal(1);
    expect(fake.controls.stats().forbidden, "the shipped RBAC allows it").to.deep.equal([]);
  });

  it("given the default 2 evictions per 100 pod-hours and one running pod, evicts nothing and sets hvx_rebalance_holding{guard=pod_hours_budget}", async () => {
    const r = rebalancer(false, { maxEvictionsPer100PodHours: 2 });
    const holding = async () =>
      Object.fromEntries((await registry.getSingleMetric("hvx_rebalance_holding")!.get()).values.map((v) => [v.labels.guard, v.value]));
    expect(await holding(), "every guard's series exists before the first cycle").to.deep.equal({
      cluster_stale: 0,
      brake: 0,
      hour_budget: 0,
      pod_hours_budget: 0,
    });
    // floor(2 x 1 / 100) = 0 evictions this hour
    expect(await r.cycleOnce()).to.deep.equal([]);
    expect(fake.controls.stats().evictions).to.deep.equal([]);
    expect(await holding()).to.deep.equal({ cluster_stale: 0, brake: 0, hour_budget: 0, pod_hours_budget: 1 });
  });

  it("given dry run twice, decides the pod once (a decision counts as an eviction for the one-hour rule)", async () => {
    const r = rebalancer(true);
    await r.cycleOnce();
    nowMs += MIN;
    expect(await r.cycleOnce()).to.deep.equal([]);
    expect(fake.controls.events("payments")).to.have.length(1);
  });

  it("given a real run, evicts through the Eviction API with the pod's uid and records an Event", async () => {
    const out = await rebalancer(false).cycleOnce();
    expect(out).to.deep.equal([{ pod: "payments/web-1", result: "evicted" }]);
    expect(fake.controls.stats().evictions).to.deep.equal(["evicted payments/web-1"]);
    expect(fake.controls.getPod("payments", "web-1")).to.equal(undefined);
    expect(fake.controls.events("payments").map((e) => e.reason)).to.deep.equal(["HvxRebalanced"]);
    expect(await counted("evicted")).to.equal(1);
    expect(fake.controls.stats().forbidden).to.deep.equal([]);
  });

  it("given a PodDisruptionBudget that forbids it (429), leaves the pod and evicts it on a later cycle once allowed", async () => {
    fake.controls.upsertPodDisruptionBudget({
      metadata: { name: "web", namespace: "payments" },
      spec: { minAvailable: 1, selector: { matchLabels: { app: "web" } } },
    });
    const r = rebalancer(false);
    expect(await r.cycleOnce()).to.deep.equal([{ pod: "payments/web-1", result: "blocked_pdb" }]);
    expect(fake.controls.getPod("payments", "web-1")).to.not.equal(undefined);
    expect(fake.controls.events("payments"), "no Event for a refused eviction").to.deep.equal([]);
    expect(await counted("blocked_pdb")).to.equal(1);
    // The Deployment scaled up: a second healthy replica elsewhere.
    fake.controls.upsertPod(
      samplePod({
        namespace: "payments",
        name: "web-2",
        nodeName: "worker-5",
        owner: { kind: "ReplicaSet", name: "web-5d8f7c9b6" },
        labels: { app: "web" },
      }),
    );
    nowMs += MIN;
    expect(await r.cycleOnce()).to.deep.equal([{ pod: "payments/web-1", result: "evicted" }]);
    expect(fake.controls.stats().evictions).to.deep.equal(["blocked payments/web-1", "evicted payments/web-1"]);
  });

  it("given leadership lost, evicts nothing and writes nothing", async () => {
    leader = false;
    expect(await rebalancer(false).cycleOnce()).to.deep.equal([]);
    expect(fake.controls.stats().evictions).to.deep.equal([]);
    expect(fake.controls.events()).to.deep.equal([]);
  });

  it("given leadership lost between choosing and evicting, stops before the eviction", async () => {
    let asked = 0;
    const r = rebalancer(false);
    (r as unknown as { o: { elector: { isLeader(): boolean } } }).o.elector.isLeader = () => ++asked === 1;
    expect(await r.cycleOnce()).to.deep.equal([]);
    expect(fake.controls.stats().evictions).to.deep.equal([]);
  });

  it("given a pod the API server no longer has (404), counts it gone", async () => {
    fake.controls.deletePod("payments", "web-1");
    expect(await rebalancer(false).cycleOnce()).to.deep.equal([{ pod: "payments/web-1", result: "gone" }]);
    expect(await counted("gone")).to.equal(1);
  });

  it("given a host hot for less than hotForMinutes, does nothing", async () => {
    const r = rebalancer(false);
    nowMs = NOW_MS - 5 * MIN; // the spell started at NOW - 11 min; pretend the clock is 6 min after it
    expect(await r.cycleOnce()).to.deep.equal([]);
  });

  it("given a node VM hot on a cool host, learns from the polls how long its spells last and evicts off it, naming the VM", async () => {
    const poll = (atMs: number, readyPercent: number) => {
      nowMs = atMs;
      inventory = fleet(10, {}, [], { 0: { cpuReadyPercent: readyPercent, sampledAtMs: atMs - 10_000 } }).inventory;
      r.observe();
    };
    inventory = fleet(10).inventory;
    const r = rebalancer(false);
    // ten spells of worker-0's own ready (8 % >= 5 %), each ended by two clear samples: 5 min 40 s apiece
    for (let k = 0; k < 10; k++) {
      const t = NOW_MS - 200 * MIN + k * 15 * MIN;
      poll(t, 8);
      poll(t + 5 * MIN, 8);
      poll(t + 5 * MIN + 20_000, 1);
      poll(t + 5 * MIN + 40_000, 1);
    }
    poll(NOW_MS - 2 * MIN, 8);
    poll(NOW_MS, 8);
    // 2 min in, 340 - 120 = 220 s expected further > 30 s restart
    expect(await r.cycleOnce()).to.deep.equal([{ pod: "payments/web-1", result: "evicted" }]);
    expect(fake.controls.events("payments")[0]!.message).to.match(
      /^Evicted by hvx: node VM worker-0 \(vm-0\) on ESXi host esx-0 \(host-0\) hot for 2 min, about 4 min more: cpu ready 8 % >= 5 %; hvx would place it on worker-\d/,
    );
  });

  describe("the hourly cap across a leader change", () => {
    // Two hot hosts (one eviction per hot host per cycle), two pods on each.
    beforeEach(() => {
      inventory = fleet(10, { 0: HOT, 1: HOT }).inventory;
      for (const i of [2, 3, 4]) {
        const owner = { kind: "ReplicaSet", name: `api${i}-7c9b6d8f5` };
        const nodeName = `worker-${i % 2}`;
        pods.push(fake.controls.upsertPod(samplePod({ namespace: "shop", name: `api-${i}`, nodeName, cpu: "500m", memory: "1Gi", owner })));
      }
    });
    const still = () => (pods = pods.filter((p) => fake.controls.getPod(p.metadata.namespace, p.metadata.name) !== undefined));

    it("given replica A evicted 2 with maxEvictionsPerHour 2 and stopped, replica B evicts none within the hour", async () => {
      const a = rebalancer(false, { identity: "hvx-a-1", maxEvictionsPerHour: 2 });
      expect(await a.cycleOnce()).to.have.length(2);
      a.stop();
      still();
      nowMs = NOW_MS - 11 * MIN; // B, a follower, has watched the hosts as long as A (every replica observes)
      const b = rebalancer(false, { identity: "hvx-b-1", maxEvictionsPerHour: 2 });
      nowMs = NOW_MS + 15_000;
      expect(await b.cycleOnce()).to.deep.equal([]);
      nowMs += 30 * MIN;
      expect(await b.cycleOnce(), "half an hour later").to.deep.equal([]);
      expect(fake.controls.stats().evictions).to.have.length(2);
      expect(fake.controls.stats().forbidden, "the shipped RBAC allows the list").to.deep.equal([]);
    });

    it("given dry run, a new leader counts the last hour's dry-run decisions", async () => {
      expect(await rebalancer(true, { identity: "hvx-a-1", maxEvictionsPerHour: 2 }).cycleOnce()).to.have.length(2);
      nowMs = NOW_MS - 11 * MIN;
      expect(await rebalancer(true, { identity: "hvx-b-1", maxEvictionsPerHour: 2 }).cycleOnce()).to.deep.equal([]);
    });

    it("given the Events cannot be read, evicts nothing until they can", async () => {
      const api = fake.kubeConfig().makeApiClient(CoreV1Api);
      const list = api.listEventForAllNamespaces.bind(api);
      let fail = true;
      api.listEventForAllNamespaces = ((p: Parameters<typeof list>[0]) =>
        fail ? Promise.reject(new Error("connection refused")) : list(p)) as typeof api.listEventForAllNamespaces;
      const r = rebalancer(false, { api });
      expect(await r.cycleOnce()).to.deep.equal([]);
      expect(fake.controls.stats().evictions).to.deep.equal([]);
      fail = false;
      expect(await r.cycleOnce()).to.have.length(2);
    });
  });
});
