import { expect } from "chai";
import { Registry } from "prom-client";
import { parseConfig } from "../../src/config/index.js";
import { registerOversellMetrics } from "../../src/observability/oversell-metrics.js";
import { buildOversellLedger, type OversellLedger } from "../../src/placement/oversell-ledger.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

const POLICY = parseConfig(undefined);
const hosts = [
  hostView({ id: "host-a", name: "esx-a", vcpuPerPcpu: 2, vramPerPram: 1 }),
  hostView({ id: "host-b", name: "esx-b", vcpuPerPcpu: 1, vramPerPram: 1 }),
];
const vms = [vmView({ id: "vm-1", name: "w1", hostId: "host-a" }), vmView({ id: "vm-2", name: "w2", hostId: "host-b" })];
const nodes = [nodeView({ name: "w1", allocatable: amounts(8, 32) }), nodeView({ name: "w2", allocatable: amounts(8, 32) })];
const pods = [
  // limits 8 / 8 = 1.0 x 2 = 2.0 on host-a
  podView({ namespace: "shop", nodeName: "w1", requests: amounts(1, 1), originalRequests: amounts(2, 2), limits: amounts(8, 16) }),
  podView({ namespace: "ghost", nodeName: "w2", requests: amounts(1, 1), originalRequests: amounts(2, 2), limits: amounts(8, 16) }),
];

describe("registerOversellMetrics", () => {
  it("exports known namespaces only, the joint ratio per host, and drops a host's series when it leaves", async () => {
    let ledger: OversellLedger = buildOversellLedger(clusterViewOf(nodes, pods), inventoryOf(hosts, vms), POLICY);
    const registry = new Registry();
    registerOversellMetrics(registry, { ledger: () => ledger, knownNamespace: (ns) => ns === "shop" });
    let text = await registry.metrics();
    expect(text).to.contain('hvx_oversell_requests{namespace="shop",resource="cpu",kind="original"} 2');
    expect(text).to.contain('hvx_oversell_requests{namespace="shop",resource="cpu",kind="scaled"} 1');
    expect(text).to.contain(`hvx_oversell_requests{namespace="shop",resource="memory",kind="original"} ${2 * 2 ** 30}`);
    expect(text).not.to.contain('namespace="ghost"');
    expect(text).to.contain('hvx_host_stacked_overcommit{host="esx-a",resource="cpu"} 2');
    expect(text).to.contain('hvx_host_stacked_overcommit{host="esx-b",resource="cpu"} 1');

    ledger = buildOversellLedger(clusterViewOf(nodes, pods), inventoryOf([hosts[0]!], vms), POLICY);
    text = await registry.metrics();
    expect(text).to.contain('host="esx-a"');
    expect(text).not.to.contain('host="esx-b"');
  });
});
