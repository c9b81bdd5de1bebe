import { expect } from "chai";
import type { ClusterView } from "../../src/model/cluster.js";
import type { HostView, InventoryView } from "../../src/model/inventory.js";
import { registerNodeHeatGauge } from "../../src/observability/node-heat-gauge.js";
import { TextFamilyRegistry } from "../../src/observability/text-family-registry.js";
import { clusterViewOf, nodeView } from "../fixtures/cluster.js";
import { seriesOf } from "../fixtures/exposition.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const t = DEFAULT_POLICY.thresholds;
const cool = hostView({ id: "host-1", name: "esx-01", clusterName: "prod" });
const hot = hostView({ id: "host-2", name: "esx-02", clusterName: "prod", metrics: { cpuReadyPercent: t.cpuReadyPercent + 5 } });
/** The first clock reading at which a time is too old: its age rounds to more than maxMetricAgeSeconds. */
const tooOldAt = (atMs: number) => atMs + (Math.floor(t.maxMetricAgeSeconds) + 0.5) * 1000;

function setup(inventory: () => InventoryView, cluster: () => ClusterView | undefined, clock: () => number = () => NOW_MS) {
  const registry = new TextFamilyRegistry();
  registerNodeHeatGauge(registry, { inventory, cluster, policy: DEFAULT_POLICY, clock });
  return async () => seriesOf(await registry.metrics(), "hvx_node_heat");
}

describe("registerNodeHeatGauge", () => {
  it("given mapped nodes, labels each with its host's heat (its own VM included); unmapped nodes have none", async () => {
    const vms = [
      vmView({ id: "vm-1", name: "worker-1", hostId: "host-1", biosUuid: undefined }),
      vmView({ id: "vm-2", name: "worker-2", hostId: "host-2", biosUuid: undefined }),
      // own VM hot on a cool host: the node is hot
      vmView({ id: "vm-3", name: "worker-3", hostId: "host-1", biosUuid: undefined, metrics: { cpuReadyPercent: t.cpuReadyPercent + 1 } }),
    ];
    const cluster = clusterViewOf([
      nodeView({ name: "worker-1" }),
      nodeView({ name: "worker-2" }),
      nodeView({ name: "worker-3" }),
      nodeView({ name: "laptop" }),
    ]);
    const scrape = setup(
      () => inventoryOf([cool, hot], vms),
      () => cluster,
    );
    expect(await scrape()).to.have.deep.members([
      { labels: { node: "worker-1", heat: "cool" }, value: 1 },
      { labels: { node: "worker-2", heat: "hot" }, value: 1 },
      { labels: { node: "worker-3", heat: "hot" }, value: 1 },
    ]);
  });

  it("given a node's host turning hot and a node leaving between scrapes, keeps one series per node, at its new heat", async () => {
    const vms = [
      vmView({ id: "vm-1", name: "worker-1", hostId: "host-1", biosUuid: undefined }),
      vmView({ id: "vm-2", name: "worker-2", hostId: "host-1", biosUuid: undefined }),
    ];
    let inventory = inventoryOf([cool], vms);
    let cluster = clusterViewOf([nodeView({ name: "worker-1" }), nodeView({ name: "worker-2" })]);
    const scrape = setup(
      () => inventory,
      () => cluster,
    );
    expect(await scrape()).to.have.length(2);
    inventory = inventoryOf([{ ...hot, id: cool.id, name: cool.name }], vms);
    cluster = clusterViewOf([nodeView({ name: "worker-1" })]);
    expect(await scrape()).to.deep.equal([{ labels: { node: "worker-1", heat: "hot" }, value: 1 }]);
  });

  it("given a hot host whose sample turns too old, its nodes are unknown from that very millisecond, and hot again if the clock goes back", async () => {
    // The host's inventory entry stays fresh (polled later than the clock reads): only its sample ages.
    const host: HostView = { ...hot, polledAtMs: NOW_MS + 3_600_000 };
    const inventory = inventoryOf([host], [vmView({ id: "vm-1", name: "worker-1", hostId: "host-2", biosUuid: undefined, metrics: null })]);
    const cluster = clusterViewOf([nodeView({ name: "worker-1" })]);
    let now = NOW_MS;
    const scrape = setup(
      () => inventory,
      () => cluster,
      () => now,
    );
    const staleAt = tooOldAt(hot.metrics!.sampledAtMs);
    const heats: string[] = [];
    for (const at of [NOW_MS, staleAt - 1, staleAt, staleAt + 60_000, staleAt - 1]) {
      now = at;
      heats.push(...(await scrape()).map((s) => s.labels.heat!));
    }
    expect(heats).to.deep.equal(["hot", "hot", "unknown", "unknown", "hot"]);
  });

  it("given a host whose inventory entry turns too old, its nodes are unknown even in maintenance", async () => {
    const host = hostView({ id: "host-1", name: "esx-01", inMaintenance: true });
    const vms = [vmView({ id: "vm-1", name: "worker-1", hostId: "host-1", biosUuid: undefined })];
    const inventory = inventoryOf([host], vms);
    const cluster = clusterViewOf([nodeView({ name: "worker-1" })]);
    let now = NOW_MS;
    const scrape = setup(
      () => inventory,
      () => cluster,
      () => now,
    );
    expect((await scrape())[0]?.labels.heat).to.equal("hot");
    now = tooOldAt(host.polledAtMs);
    expect((await scrape())[0]?.labels.heat).to.equal("unknown");
  });

  it("given a node whose own VM is hot until the VM's sample turns too old, the node follows its cool host again", async () => {
    const vmSampledAt = NOW_MS - 60_000;
    const inventory = inventoryOf(
      [{ ...cool, metrics: { ...cool.metrics!, sampledAtMs: NOW_MS } }],
      [
        vmView({
          id: "vm-1",
          name: "worker-1",
          hostId: "host-1",
          biosUuid: undefined,
          metrics: { sampledAtMs: vmSampledAt, cpuReadyPercent: 99 },
        }),
      ],
    );
    const cluster = clusterViewOf([nodeView({ name: "worker-1" })]);
    let now = NOW_MS;
    const scrape = setup(
      () => inventory,
      () => cluster,
      () => now,
    );
    expect((await scrape())[0]?.labels.heat).to.equal("hot");
    now = tooOldAt(vmSampledAt) - 1;
    expect((await scrape())[0]?.labels.heat).to.equal("hot");
    now = tooOldAt(vmSampledAt);
    expect((await scrape())[0]?.labels.heat).to.equal("cool");
  });

  it("given scrapes where nothing changed (same nodes and inventory, no time turned too old), judges no node again", async () => {
    let lookups = 0;
    class CountingMap<K, V> extends Map<K, V> {
      override get(key: K): V | undefined {
        lookups++;
        return super.get(key);
      }
    }
    const base = inventoryOf([cool, hot], [vmView({ id: "vm-1", name: "worker-1", hostId: "host-1", biosUuid: undefined })]);
    const inventory: InventoryView = { ...base, hosts: new CountingMap(base.hosts) };
    const view = clusterViewOf([nodeView({ name: "worker-1" })]);
    let now = NOW_MS;
    // Pods come and go (a new view each scrape) on the same nodes.
    const scrape = setup(
      () => inventory,
      () => ({ ...view, podsByNode: new Map() }),
      () => now,
    );
    const first = await scrape();
    const after = lookups;
    now += 30_000;
    expect(await scrape()).to.deep.equal(first);
    now += 30_000;
    expect(await scrape()).to.deep.equal(first);
    expect(lookups - after).to.equal(0);
  });

  it("given no cluster cache, has no series", async () => {
    const scrape = setup(
      () => inventoryOf([cool], [vmView({ hostId: "host-1" })]),
      () => undefined,
    );
    expect(await scrape()).to.deep.equal([]);
  });
});
