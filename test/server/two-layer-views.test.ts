import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import { buildAdviceView, buildOversellView, heatByHost, type TwoLayerSources } from "../../src/server/two-layer-views.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";

const hosts = [hostView({ id: "host-a", name: "esx-a" }), hostView({ id: "host-b", name: "esx-b" })];
const vms = [vmView({ id: "vm-1", name: "w1", hostId: "host-a" }), vmView({ id: "vm-2", name: "w2", hostId: "host-b" })];
const nodes = [nodeView({ name: "w1", allocatable: amounts(8, 32) }), nodeView({ name: "w2", allocatable: amounts(8, 32) })];
const pods = [podView({ namespace: "shop", nodeName: "w1" }), podView({ namespace: "shop", nodeName: "w2" })];

function sources(withCluster = true): TwoLayerSources {
  const cluster = { ...clusterViewOf(nodes, pods), namespaces: new Map([["shop", {}]]) };
  return {
    inventory: () => inventoryOf(hosts, vms),
    cluster: () => (withCluster ? cluster : undefined),
    reservations: () => new Map(),
    memoryPainSince: () => new Set(),
    hotSince: () => new Set(["host-a"]),
  };
}

describe("two-layer views", () => {
  const cases: Array<{ name: string; config: string; oversold: boolean }> = [
    {
      name: "given admission on with cpuRatio 2, shop is oversold: half its hosts hot is a finding",
      config: "admission: { enabled: true, cpuRatio: 2.0 }",
      oversold: true,
    },
    {
      name: "given admission on with ratios 1, no finding",
      config: "admission: { enabled: true, cpuRatio: 1.0, memoryRatio: 1.0 }",
      oversold: false,
    },
    { name: "given admission off, no finding", config: "admission: { enabled: false, cpuRatio: 2.0 }", oversold: false },
    {
      name: "given shop excluded, no finding",
      config: "admission: { enabled: true, cpuRatio: 2.0, excludeNamespaces: [shop] }",
      oversold: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const view = buildAdviceView(sources(), parseConfig(c.config), NOW_MS);
      expect(view.findings.some((f) => f.rule === "oversell-on-hot-hosts" && f.subject === "namespace shop")).to.equal(c.oversold);
    });
  }

  it("given no Kubernetes API, the ledger says so and has per-host ESXi ratios only", () => {
    const view = buildOversellView(sources(false), parseConfig(undefined), NOW_MS);
    expect(view.kubernetes).to.equal(false);
    expect(view.hosts.map((h) => h.kubernetes.cpu)).to.deep.equal([null, null]);
    expect(view.hosts.map((h) => h.esxi.cpu)).to.deep.equal([1.5, 1.5]);
  });

  it("heatByHost leaves out hosts without an opinion (no sample)", () => {
    const heat = heatByHost(
      inventoryOf([hosts[0]!, hostView({ id: "host-c", metrics: null })], []),
      parseConfig(undefined).thresholds,
      NOW_MS,
    );
    expect([...heat.keys()]).to.deep.equal(["host-a"]);
  });
});
