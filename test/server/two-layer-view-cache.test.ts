import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import type { ClusterView, PodView } from "../../src/model/cluster.js";
import type { InventoryView } from "../../src/model/inventory.js";
import type { VmReservation } from "../../src/placement/advise.js";
import { TwoLayerViewCache } from "../../src/server/two-layer-view-cache.js";
import { buildAdviceView, buildOversellView, type TwoLayerSources } from "../../src/server/two-layer-views.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";

const POLICY = parseConfig("admission: { enabled: true, cpuRatio: 2.0 }");
const hosts = [
  hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 4, metrics: { cpuReadyPercent: 30 } }),
  hostView({ id: "host-b", name: "esx-b", vramPerPram: 1.4 }),
];
const vms = [
  vmView({ id: "vm-1", name: "w1", hostId: "host-a" }),
  vmView({ id: "vm-2", name: "w2", hostId: "host-a" }),
  vmView({ id: "vm-3", name: "w3", hostId: "host-b" }),
];
const nodes = ["w1", "w2", "w3"].map((name) => nodeView({ name, allocatable: amounts(8, 30) }));
const scaled = (name: string, node: string, ns = "shop") =>
  podView({ name, namespace: ns, nodeName: node, requests: amounts(0.25, 0.5), originalRequests: amounts(0.5, 1), limits: amounts(6, 40) });
const bestEffort = (name: string, node: string) =>
  podView({ name, namespace: "ci", nodeName: node, requests: amounts(0, 0), limits: amounts(0, 0) });
const PODS = [
  scaled("s1", "w1"),
  scaled("s2", "w2"),
  bestEffort("b1", "w1"),
  podView({ name: "plain", nodeName: "w3" }),
  scaled("s3", "w3", "web"),
];

/** Sources whose snapshots the test replaces, as the poller and the informer do. */
class Fleet {
  inventory: InventoryView = inventoryOf(hosts, vms);
  cluster: ClusterView = {
    ...clusterViewOf(nodes, PODS),
    namespaces: new Map([
      ["shop", {}],
      ["web", {}],
      ["ci", {}],
    ]),
  };
  reservations = new Map<string, VmReservation>([["vm-1", { memoryReservationMiB: 0, cpuReservationMhz: 0 }]]);
  pain = ["host-a"];
  hot = ["host-a"];
  readonly sources: TwoLayerSources = {
    inventory: () => this.inventory,
    cluster: () => this.cluster,
    // fresh collections every call, as VmReservations and HostPainHistory hand out
    reservations: () => new Map(this.reservations),
    memoryPainSince: () => new Set(this.pain),
    hotSince: () => new Set(this.hot),
  };
  poll(): void {
    this.inventory = { ...this.inventory };
  }
  bind(pod: PodView): void {
    const podsByNode = new Map(this.cluster.podsByNode);
    podsByNode.set(pod.nodeName!, [...(podsByNode.get(pod.nodeName!) ?? []), pod]);
    this.cluster = { ...this.cluster, podsByNode };
  }
}

function cacheOf(fleet: Fleet, over: Partial<ConstructorParameters<typeof TwoLayerViewCache>[0]> = {}): TwoLayerViewCache {
  return new TwoLayerViewCache({ sources: fleet.sources, policy: POLICY, clock: () => NOW_MS, ...over });
}

async function expectDirect(cache: TwoLayerViewCache, fleet: Fleet): Promise<void> {
  expect(await cache.oversell()).to.deep.equal(buildOversellView(fleet.sources, POLICY, NOW_MS));
  expect(await cache.advice()).to.deep.equal(buildAdviceView(fleet.sources, POLICY, NOW_MS));
}

describe("TwoLayerViewCache", () => {
  it("given a snapshot, answers what the direct computation answers (ledger and every advice rule)", async () => {
    const fleet = new Fleet();
    const cache = cacheOf(fleet);
    await expectDirect(cache, fleet);
    const advice = await cache.advice();
    // not an empty comparison: the fixture fires most rules
    expect(new Set(advice.findings.map((f) => f.rule))).to.include.members([
      "memory-reservation",
      "esxi-overcommit",
      "besteffort-on-warm-host",
      "oversell-on-hot-hosts",
      "limit-overcommit-on-warm-host",
    ]);
    expect((await cache.oversell()).totals.podsScaled).to.equal(3);
  });

  const changes: Array<{ name: string; change: (f: Fleet) => void; podsScaled: number }> = [
    { name: "a poll (new inventory)", change: (f) => f.poll(), podsScaled: 3 },
    { name: "a pod bound (new cluster view, other nodes' lists shared)", change: (f) => f.bind(scaled("s4", "w1", "web")), podsScaled: 4 },
    {
      name: "a pod leaving",
      change: (f) =>
        (f.cluster = {
          ...f.cluster,
          podsByNode: new Map([...f.cluster.podsByNode].map(([n, ps]) => [n, ps.filter((p) => p.name !== "s1")])),
        }),
      podsScaled: 2,
    },
    {
      name: "a reservation read",
      change: (f) => f.reservations.set("vm-1", { memoryReservationMiB: 32768, cpuReservationMhz: 0 }),
      podsScaled: 3,
    },
    {
      name: "the host cooling down",
      change: (f) => (
        (f.hot = []),
        (f.inventory = inventoryOf([hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 4 }), hosts[1]!], vms))
      ),
      podsScaled: 3,
    },
  ];
  for (const c of changes) {
    it(`given ${c.name}, follows the new snapshot with one more computation`, async () => {
      const fleet = new Fleet();
      const cache = cacheOf(fleet);
      const before = JSON.stringify(await cache.advice());
      c.change(fleet);
      await expectDirect(cache, fleet);
      expect((await cache.oversell()).totals.podsScaled).to.equal(c.podsScaled);
      expect(cache.computations()).to.equal(2);
      if (c.name !== "a poll (new inventory)") expect(JSON.stringify(await cache.advice())).to.not.equal(before);
    });
  }

  it("given the same snapshot again (fresh but equal reservations, pain and hot sets), computes nothing more", async () => {
    const fleet = new Fleet();
    const cache = cacheOf(fleet);
    await cache.oversell();
    await cache.advice();
    await cache.oversell();
    expect(cache.computations()).to.equal(1);
  });

  it("given concurrent page refreshes of one snapshot, computes it once and answers them all", async () => {
    const fleet = new Fleet();
    const cache = cacheOf(fleet);
    const answers = await Promise.all([cache.oversell(), cache.advice(), cache.oversell(), cache.advice(), cache.refresh()]);
    expect(cache.computations()).to.equal(1);
    expect(answers[0]).to.deep.equal(answers[2]);
  });

  it("given newer snapshots while one is computed, later callers share one more computation (no pile-up)", async () => {
    const fleet = new Fleet();
    const cache = cacheOf(fleet);
    const first = cache.oversell();
    const late: Promise<unknown>[] = [];
    for (const name of ["n1", "n2", "n3"]) {
      fleet.bind(scaled(name, "w2"));
      late.push(cache.oversell(), cache.advice());
    }
    expect((await first).totals.podsScaled).to.equal(3);
    await Promise.all(late);
    expect(cache.computations()).to.equal(2);
    // the queued computation read the newest snapshot
    await expectDirect(cache, fleet);
    expect(cache.computations()).to.equal(2);
  });

  it("computes nothing while the caller's turn runs: the work starts after it yields, in slices", async () => {
    const fleet = new Fleet();
    let yields = 0;
    let t = 0;
    // every pod list read "takes" a slice: the cache must yield between lists
    const cache = cacheOf(fleet, {
      sliceMs: 1,
      elapsed: () => t++,
      yieldToLoop: () => new Promise((resolve) => setImmediate(() => resolve(void yields++))),
    });
    const answer = cache.oversell();
    expect(cache.lastLedger().hosts).to.deep.equal([]);
    expect(yields).to.equal(0);
    await answer;
    // one yield before starting, one per pod list (3 nodes), one before the mapping, the ledger, and each half of the advice
    expect(yields).to.equal(1 + fleet.cluster.podsByNode.size + 4);
  });

  it("given a new snapshot, reads again only the pod lists that changed", async () => {
    const fleet = new Fleet();
    let yields = 0;
    let t = 0;
    const cache = cacheOf(fleet, {
      sliceMs: 1,
      elapsed: () => t++,
      yieldToLoop: () => new Promise((resolve) => setImmediate(() => resolve(void yields++))),
    });
    await cache.oversell();
    yields = 0;
    fleet.bind(scaled("s5", "w2"));
    fleet.poll();
    await expectDirect(cache, fleet);
    // one yield before starting, one for w2's new list only, one before the mapping, the ledger, and each half of the advice
    expect(yields).to.equal(1 + 1 + 4);
  });

  it("lastLedger answers the last computed ledger without waiting, and asks for one only before the first", async () => {
    const fleet = new Fleet();
    const cache = cacheOf(fleet);
    expect(cache.lastLedger().totals.podsScaled).to.equal(0);
    expect(cache.computations()).to.equal(1);
    await cache.refresh();
    expect(cache.lastLedger().totals.podsScaled).to.equal(3);
    fleet.bind(scaled("s9", "w1"));
    expect(cache.lastLedger().totals.podsScaled).to.equal(3);
    // The poll's refresh computes the new snapshot, not the scrape.
    expect(cache.computations()).to.equal(1);
    await cache.refresh();
    expect(cache.lastLedger().totals.podsScaled).to.equal(4);
    expect(cache.computations()).to.equal(2);
  });

  it("given no Kubernetes API, serves the ESXi layer alone, as the direct computation does", async () => {
    const fleet = new Fleet();
    const sources = { ...fleet.sources, cluster: () => undefined };
    const cache = new TwoLayerViewCache({ sources, policy: POLICY, clock: () => NOW_MS });
    const view = await cache.oversell();
    expect(view.kubernetes).to.equal(false);
    expect(view).to.deep.equal(buildOversellView(sources, POLICY, NOW_MS));
    expect(await cache.advice()).to.deep.equal(buildAdviceView(sources, POLICY, NOW_MS));
  });

  it("given a failing computation, its callers get the error and the next snapshot is computed", async () => {
    const fleet = new Fleet();
    const broken = { ...fleet.cluster, podsByNode: new Map([["w1", null as unknown as PodView[]]]) };
    let cluster: ClusterView = broken;
    const cache = new TwoLayerViewCache({ sources: { ...fleet.sources, cluster: () => cluster }, policy: POLICY, clock: () => NOW_MS });
    let failed: unknown;
    await cache.oversell().catch((err: unknown) => (failed = err));
    expect(failed).to.be.instanceOf(Error);
    cluster = fleet.cluster;
    expect((await cache.oversell()).totals.podsScaled).to.equal(3);
  });
});
