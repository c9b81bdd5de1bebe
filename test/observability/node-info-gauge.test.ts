import { expect } from "chai";
import type { ClusterView } from "../../src/model/cluster.js";
import type { InventoryView } from "../../src/model/inventory.js";
import { registerNodeInfoGauge, vcenterLabel } from "../../src/observability/node-info-gauge.js";
import { TextFamilyRegistry } from "../../src/observability/text-family-registry.js";
import { seriesOf } from "../fixtures/exposition.js";
import { clusterViewOf, nodeView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

async function infoSeries(registry: TextFamilyRegistry) {
  return seriesOf(await registry.metrics(), "hvx_node_info");
}

const hosts = [hostView({ id: "host-1", name: "esx-01", clusterName: "prod" }), hostView({ id: "host-2", name: "esx-02" })];
const uuid = "42267e63-e4e0-c681-b5dd-f69dfa981039";

describe("registerNodeInfoGauge", () => {
  function setup(inventory: () => InventoryView, cluster: () => ClusterView | undefined) {
    const registry = new TextFamilyRegistry();
    registerNodeInfoGauge(registry, { inventory, cluster, nodeMapping: ["providerID", "name"], vcenter: "vc01.example.com" });
    return registry;
  }

  it("given nodes mapped by providerID and by name, exports one info series each; an unmapped node has none", async () => {
    const vms = [
      vmView({ id: "vm-1", name: "vm-worker-a", hostId: "host-1", biosUuid: uuid }),
      vmView({ id: "vm-2", name: "worker-b", hostId: "host-2", biosUuid: undefined }),
    ];
    const cluster = clusterViewOf([
      nodeView({ name: "worker-a", providerID: `vsphere://${uuid}` }),
      nodeView({ name: "worker-b" }),
      nodeView({ name: "elsewhere" }),
    ]);
    const registry = setup(
      () => inventoryOf(hosts, vms),
      () => cluster,
    );
    expect(await infoSeries(registry)).to.have.deep.members([
      { labels: { node: "worker-a", vm: "vm-worker-a", host: "esx-01", cluster: "prod", vcenter: "vc01.example.com" }, value: 1 },
      { labels: { node: "worker-b", vm: "worker-b", host: "esx-02", cluster: "", vcenter: "vc01.example.com" }, value: 1 },
    ]);
  });

  it("given a node whose VM moved to another host, keeps only the new host's series; a node that left has none", async () => {
    let vms = [
      vmView({ id: "vm-1", name: "worker-a", hostId: "host-1", biosUuid: undefined }),
      vmView({ id: "vm-2", name: "worker-b", hostId: "host-1", biosUuid: undefined }),
    ];
    let cluster = clusterViewOf([nodeView({ name: "worker-a" }), nodeView({ name: "worker-b" })]);
    const registry = setup(
      () => inventoryOf(hosts, vms),
      () => cluster,
    );
    expect(await infoSeries(registry)).to.have.length(2);
    vms = [vmView({ id: "vm-1", name: "worker-a", hostId: "host-2", biosUuid: undefined }), vms[1]!];
    cluster = clusterViewOf([nodeView({ name: "worker-a" })]);
    expect(await infoSeries(registry)).to.deep.equal([
      { labels: { node: "worker-a", vm: "worker-a", host: "esx-02", cluster: "", vcenter: "vc01.example.com" }, value: 1 },
    ]);
  });

  it("given a scrape after pods alone changed (same nodes and inventory), maps no node again and keeps the series", async () => {
    const inventory = inventoryOf(hosts, [vmView({ id: "vm-1", name: "worker-a", hostId: "host-1", biosUuid: undefined })]);
    const counted = countingPasses(["worker-a"]);
    let cluster = counted.cluster;
    const registry = setup(
      () => inventory,
      () => cluster,
    );
    const first = await infoSeries(registry);
    cluster = { ...cluster, podsByNode: new Map() };
    expect(await infoSeries(registry))
      .to.deep.equal(first)
      .and.to.have.length(1);
    expect(counted.passes()).to.equal(1);
  });

  it("given a new poll of the same VMs (new objects, same hosts), maps no node again and keeps the series", async () => {
    const vms = [
      vmView({ id: "vm-1", name: "worker-a", hostId: "host-1", biosUuid: undefined }),
      vmView({ id: "vm-2", name: "worker-b", hostId: "host-2", biosUuid: undefined }),
    ];
    let inventory = inventoryOf(hosts, vms);
    const { cluster, passes } = countingPasses(["worker-a", "worker-b"]);
    const registry = setup(
      () => inventory,
      () => cluster,
    );
    const first = await infoSeries(registry);
    inventory = inventoryOf(
      hosts.map((h) => ({ ...h })),
      vms.map((v) => ({ ...v, metrics: { ...v.metrics!, sampledAtMs: v.metrics!.sampledAtMs + 20_000 } })),
    );
    expect(await infoSeries(registry))
      .to.deep.equal(first)
      .and.to.have.length(2);
    expect(passes()).to.equal(1);
  });

  it("given a VM moving to another host (all else the same), maps no node again and shows the new host", async () => {
    const vms = [
      vmView({ id: "vm-1", name: "worker-a", hostId: "host-1", biosUuid: undefined }),
      vmView({ id: "vm-2", name: "worker-b", hostId: "host-1", biosUuid: undefined }),
    ];
    let inventory = inventoryOf(hosts, vms);
    const { cluster, passes } = countingPasses(["worker-a", "worker-b"]);
    const registry = setup(
      () => inventory,
      () => cluster,
    );
    await infoSeries(registry);
    inventory = inventoryOf(hosts, [{ ...vms[0]!, hostId: "host-2" }, vms[1]!]);
    expect((await infoSeries(registry)).map((s) => [s.labels.node, s.labels.host])).to.deep.equal([
      ["worker-a", "esx-02"],
      ["worker-b", "esx-01"],
    ]);
    expect(passes()).to.equal(1);
  });

  it("given a host renamed by a new poll, rewrites its nodes' series with the new host name", async () => {
    const vms = [vmView({ id: "vm-1", name: "worker-a", hostId: "host-1", biosUuid: undefined })];
    let inventory = inventoryOf(hosts, vms);
    const cluster = clusterViewOf([nodeView({ name: "worker-a" })]);
    const registry = setup(
      () => inventory,
      () => cluster,
    );
    await infoSeries(registry);
    inventory = inventoryOf([{ ...hosts[0]!, name: "esx-01-new" }, hosts[1]!], vms);
    expect(await infoSeries(registry)).to.deep.equal([
      { labels: { node: "worker-a", vm: "worker-a", host: "esx-01-new", cluster: "prod", vcenter: "vc01.example.com" }, value: 1 },
    ]);
  });

  it("given no cluster cache, exports nothing", async () => {
    const registry = setup(
      () => inventoryOf(hosts, [vmView({ hostId: "host-1" })]),
      () => undefined,
    );
    expect(await infoSeries(registry)).to.deep.equal([]);
  });
});

describe("vcenterLabel", () => {
  const cases = [
    {
      name: "keeps the host name only, dropping user info, port and path",
      url: "https://admin:secret@vc01.example.com:8443/sdk",
      want: "vc01.example.com",
    },
    { name: "an IP address", url: "http://127.0.0.1:41234", want: "127.0.0.1" },
    { name: "not a URL: empty", url: "vc01", want: "" },
  ];
  for (const c of cases) it(c.name, () => expect(vcenterLabel(c.url)).to.equal(c.want));
});

/** A cluster view of `names` whose nodes map counts the passes over it: each is a mapping of every node. */
function countingPasses(names: readonly string[]): { cluster: ClusterView; passes: () => number } {
  const base = clusterViewOf(names.map((name) => nodeView({ name })));
  let passes = 0;
  const nodes = Object.assign(new Map(base.nodes), {
    values() {
      passes++;
      return Map.prototype.values.call(this);
    },
  });
  return { cluster: { ...base, nodes }, passes: () => passes };
}
