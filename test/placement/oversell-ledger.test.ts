import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import { buildOversellLedger } from "../../src/placement/oversell-ledger.js";
import { amounts, clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, vmView } from "../fixtures/inventory.js";

// Defaults: limits.maxCpuOvercommit 2.0, maxMemoryOvercommit 1.2, maxStackedCpuOvercommit 4.0;
// admission.maxStackedMemoryOvercommit 1.5.
const POLICY = parseConfig(undefined);
const hostA = hostView({ id: "host-a", name: "esx-a", cpuCores: 16, vcpuPerPcpu: 2.5, memoryMiB: 262144, vramPerPram: 1.25 });
const hostB = hostView({ id: "host-b", name: "esx-b", cpuCores: 16, vcpuPerPcpu: 1, memoryMiB: 262144, vramPerPram: 0.5 });
const vms = [
  vmView({ id: "vm-1", name: "w1", hostId: "host-a" }),
  vmView({ id: "vm-2", name: "w2", hostId: "host-a" }),
  vmView({ id: "vm-3", name: "w3", hostId: "host-b" }),
];
const inventory = inventoryOf([hostA, hostB], vms);
// Two nodes of 8 CPUs / 32 GiB allocatable on host-a, one on host-b.
const nodes = ["w1", "w2", "w3"].map((name) => nodeView({ name, allocatable: amounts(8, 32) }));

describe("buildOversellLedger", () => {
  it("given scaled and unscaled pods, sums the scaled pods' original and scaled requests per namespace", () => {
    const pods = [
      // scaled 2 -> 1 CPU, 4 -> 2 GiB
      podView({ namespace: "shop", nodeName: "w1", requests: amounts(1, 2), originalRequests: amounts(2, 4) }),
      // scaled 1 -> 0.25 CPU, memory left: 1 GiB both
      podView({ namespace: "shop", nodeName: "w2", requests: amounts(0.25, 1), originalRequests: amounts(1, 1) }),
      podView({ namespace: "shop", nodeName: "w3", requests: amounts(3, 3) }),
      podView({ namespace: "batch", nodeName: "w3", requests: amounts(1, 1) }),
    ];
    const ledger = buildOversellLedger(clusterViewOf(nodes, pods), inventory, POLICY);
    const shop = ledger.namespaces.find((n) => n.namespace === "shop")!;
    expect(shop).to.deep.include({ pods: 3, podsScaled: 2, original: amounts(3, 5), scaled: amounts(1.25, 3) });
    // 3 / 1.25 = 2.4; 5 / 3 = 1.667
    expect(shop.cpuRatio).to.be.closeTo(2.4, 1e-9);
    expect(shop.memoryRatio).to.be.closeTo(5 / 3, 1e-9);
    const batch = ledger.namespaces.find((n) => n.namespace === "batch")!;
    expect(batch).to.deep.include({ pods: 1, podsScaled: 0, cpuRatio: null, memoryRatio: null });
    expect(ledger.totals).to.deep.include({ namespacesScaled: 1, podsScaled: 2, original: amounts(3, 5), scaled: amounts(1.25, 3) });
  });

  const hostCases: Array<{
    name: string;
    cpuLimits: number;
    memLimitsGiB: number;
    k8sCpu: number;
    jointCpu: number;
    jointMem: number;
    above: string[];
  }> = [
    // limits 16 CPU / 16 alloc = 1.0 x 2.5 = 2.5 <= 4; memory 32 GiB / 64 = 0.5 x 1.25 = 0.625 <= 1.5
    {
      name: "given limits equal to allocatable, joint = the ESXi layer, under the caps",
      cpuLimits: 16,
      memLimitsGiB: 32,
      k8sCpu: 1,
      jointCpu: 2.5,
      jointMem: 0.625,
      above: [],
    },
    // 32 / 16 = 2.0 x 2.5 = 5.0 > 4; memory 96 / 64 = 1.5 x 1.25 = 1.875 > 1.5
    {
      name: "given limits twice allocatable, joint 5.0 cpu and 1.875 memory, both above the caps",
      cpuLimits: 32,
      memLimitsGiB: 96,
      k8sCpu: 2,
      jointCpu: 5,
      jointMem: 1.875,
      above: ["cpu", "memory"],
    },
  ];
  for (const c of hostCases) {
    it(c.name, () => {
      // Split over the host's two nodes: the layer sums limits and allocatable over all its node VMs.
      const pods = [
        podView({ nodeName: "w1", limits: amounts(c.cpuLimits / 2, c.memLimitsGiB / 2) }),
        podView({ nodeName: "w2", limits: amounts(c.cpuLimits / 2, c.memLimitsGiB / 2) }),
      ];
      const ledger = buildOversellLedger(clusterViewOf(nodes, pods), inventory, POLICY);
      const a = ledger.hosts.find((h) => h.id === "host-a")!;
      expect(a.nodes).to.deep.equal(["w1", "w2"]);
      expect(a.kubernetes.cpu).to.be.closeTo(c.k8sCpu, 1e-9);
      expect(a.esxi).to.deep.equal({ cpu: 2.5, memory: 1.25 });
      expect(a.joint.cpu).to.be.closeTo(c.jointCpu, 1e-9);
      expect(a.joint.memory).to.be.closeTo(c.jointMem, 1e-9);
      // the extender's stacked rule: cpu limits / 16 cores
      expect(a.cpuLimitsPerCore).to.be.closeTo(c.cpuLimits / 16, 1e-9);
      expect(a.caps).to.deep.equal({ kubernetesCpu: 2, kubernetesMemory: 1.2, jointCpu: 4, jointMemory: 1.5 });
      expect(a.aboveCap).to.deep.equal(c.above);
      expect(ledger.totals.hostsAboveCap).to.equal(c.above.length > 0 ? 1 : 0);
    });
  }

  it("given a host without node VMs or without cores, its ratios are null (no opinion), never above the cap", () => {
    const bare = hostView({ id: "host-c", name: "esx-c", cpuCores: 0, vcpuPerPcpu: 0, memoryMiB: 0, vramPerPram: 0 });
    const ledger = buildOversellLedger(clusterViewOf(nodes, []), inventoryOf([bare], []), POLICY);
    expect(ledger.hosts[0]).to.deep.include({
      kubernetes: { cpu: null, memory: null },
      esxi: { cpu: null, memory: null },
      joint: { cpu: null, memory: null },
      cpuLimitsPerCore: null,
      aboveCap: [],
    });
  });

  it("given an empty cluster, totals are zero", () => {
    const ledger = buildOversellLedger(clusterViewOf([], []), inventoryOf([], []), POLICY);
    expect(ledger.totals).to.deep.equal({
      namespacesScaled: 0,
      podsScaled: 0,
      original: amounts(0, 0),
      scaled: amounts(0, 0),
      hostsAboveCap: 0,
    });
  });
});
