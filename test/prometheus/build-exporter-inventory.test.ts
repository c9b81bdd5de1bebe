import { expect } from "chai";
import { buildExporterInventory } from "../../src/prometheus/build-exporter-inventory.js";
import type { PromSample } from "../../src/prometheus/parse-query-response.js";

const T = 1_764_500_000_000;
const s = (labels: Record<string, string>, value: number, atMs = T - 3_000): PromSample => ({ labels, value, atMs });
const H = { host_name: "esx-01", cluster_name: "prod", dc_name: "dc1" };
const V = { vm_name: "k8s-worker-01", host_name: "esx-01", cluster_name: "prod", dc_name: "dc1", ds_name: "ds1" };
const inventory = (): Map<string, PromSample[]> =>
  new Map([
    ["vmware_host_num_cpu", [s(H, 32)]],
    ["vmware_host_cpu_max", [s(H, 83_200)]],
    ["vmware_host_memory_max", [s(H, 262_144)]],
    ["vmware_host_memory_usage", [s(H, 131_072)]],
    ["vmware_host_maintenance_mode", [s(H, 0)]],
    [
      "vmware_host_connection_state",
      [s({ ...H, state: "connected" }, 1), s({ ...H, state: "disconnected" }, 0), s({ ...H, state: "notResponding" }, 0)],
    ],
    ["vmware_vm_num_cpu", [s(V, 4)]],
    ["vmware_vm_memory_max", [s(V, 16_384)]],
    ["vmware_vm_power_state", [s(V, 1)]],
  ]);

describe("buildExporterInventory", () => {
  it("builds hosts and VMs keyed by name from the inventory gauges", () => {
    const view = buildExporterInventory(inventory(), T);
    const h = view.hosts.get("esx-01")!;
    // 83 200 MHz / 32 cores = 2600 MHz per core
    expect([h.name, h.clusterName, h.cpuCores, h.cpuMhzPerCore, h.memoryMiB, h.connectionState, h.inMaintenance, h.vmIds]).to.deep.equal([
      "esx-01",
      "prod",
      32,
      2600,
      262_144,
      "CONNECTED",
      false,
      ["k8s-worker-01"],
    ]);
    const vm = view.vms.get("k8s-worker-01")!;
    expect([vm.hostId, vm.vcpus, vm.memoryMiB, vm.powerState, vm.biosUuid]).to.deep.equal(["esx-01", 4, 16_384, "POWERED_ON", undefined]);
  });

  it("converts raw vCenter units: cpu usage hundredths of a percent, memory usage % = usage / max, ready ms per 20 s per vCPU", () => {
    const series = inventory();
    series.set("vmware_host_cpu_usage_average", [s(H, 7850)]);
    series.set("vmware_vm_cpu_ready_summation", [s(V, 8000)]);
    series.set("vmware_host_mem_swapinRate_average", [s(H, 12)]);
    const view = buildExporterInventory(series, T);
    const m = view.hosts.get("esx-01")!.metrics!;
    expect(m.cpuUsagePercent).to.be.closeTo(78.5, 1e-9);
    // 131 072 / 262 144 = 50 %
    expect(m.memUsagePercent).to.be.closeTo(50, 1e-9);
    expect(m.swapInKBps).to.equal(12);
    expect(m).to.not.have.property("memState");
    // 8000 / 20 000 / 4 = 10 %
    expect(view.vms.get("k8s-worker-01")?.metrics?.cpuReadyPercent).to.be.closeTo(10, 1e-9);
  });

  const states: Array<{
    name: string;
    edit: (m: Map<string, PromSample[]>) => void;
    want: { connectionState: string; inMaintenance: boolean };
  }> = [
    {
      name: "given maintenance 1, in maintenance",
      edit: (m) => m.set("vmware_host_maintenance_mode", [s(H, 1)]),
      want: { connectionState: "CONNECTED", inMaintenance: true },
    },
    {
      name: "given state notResponding = 1, NOT_RESPONDING",
      edit: (m) => m.set("vmware_host_connection_state", [s({ ...H, state: "connected" }, 0), s({ ...H, state: "notResponding" }, 1)]),
      want: { connectionState: "NOT_RESPONDING", inMaintenance: false },
    },
    {
      name: "given no connection series, NOT_RESPONDING (as an unknown vCenter state)",
      edit: (m) => m.delete("vmware_host_connection_state"),
      want: { connectionState: "NOT_RESPONDING", inMaintenance: false },
    },
  ];
  for (const c of states) {
    it(c.name, () => {
      const series = inventory();
      c.edit(series);
      const h = buildExporterInventory(series, T).hosts.get("esx-01")!;
      expect({ connectionState: h.connectionState, inMaintenance: h.inMaintenance }).to.deep.equal(c.want);
    });
  }

  it("given only inventory gauges, the host's metrics are unknown apart from memory usage", () => {
    const m = buildExporterInventory(inventory(), T).hosts.get("esx-01")!.metrics!;
    expect(Object.keys(m).sort()).to.deep.equal(["memUsagePercent", "sampledAtMs"]);
  });

  it("given series without host_name or vm_name, ignores them instead of crashing", () => {
    const series = inventory();
    series.set("vmware_host_num_cpu", [s({ dc_name: "dc1" }, 8), s(H, 32)]);
    series.set("vmware_vm_cpu_ready_summation", [s({ host_name: "esx-01" }, 1)]);
    const view = buildExporterInventory(series, T);
    expect([...view.hosts.keys()]).to.deep.equal(["esx-01"]);
  });
});
