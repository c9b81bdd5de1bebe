import { expect } from "chai";
import type { HostView, InventoryView, VmView } from "../../src/model/inventory.js";
import { buildTelegrafInventory } from "../../src/prometheus/build-telegraf-inventory.js";
import type { PromSample } from "../../src/prometheus/parse-query-response.js";

const T = 1_764_500_000_000;
const host: HostView = {
  id: "host-11",
  name: "esx-01",
  clusterName: "prod",
  polledAtMs: T,
  connectionState: "CONNECTED",
  inMaintenance: false,
  cpuCores: 32,
  cpuMhzPerCore: 2600,
  memoryMiB: 262_144,
  vmIds: ["vm-101", "vm-102"],
  vcpuPerPcpu: 0,
  vramPerPram: 0,
};
const vm = (id: string, uuid: string, vcpus: number): VmView => ({
  id,
  name: `k8s-${id}`,
  hostId: "host-11",
  biosUuid: uuid,
  powerState: "POWERED_ON",
  vcpus,
  memoryMiB: 16_384,
});
const base: InventoryView = {
  hosts: new Map([["host-11", host]]),
  vms: new Map([
    ["vm-101", vm("vm-101", "4201aaaa-0000-0000-0000-000000000101", 4)],
    ["vm-102", vm("vm-102", "4201aaaa-0000-0000-0000-000000000102", 2)],
  ]),
  polledAtMs: T,
};
const s = (labels: Record<string, string>, value: number, atMs = T - 5_000): PromSample => ({ labels, value, atMs });
const hostLabels = { moid: "host-11", esxhostname: "esx-01", vcenter: "vc01" };

describe("buildTelegrafInventory", () => {
  it("converts Telegraf's units to the model's: ready ms per 20 s per vCPU, percent as is, KB to MiB", () => {
    const view = buildTelegrafInventory(
      base,
      new Map([
        // 8000 ms / 20 000 ms / 4 vCPU = 10 %
        [
          "vsphere_vm_cpu_ready_summation",
          [s({ uuid: "4201AAAA-0000-0000-0000-000000000101", moid: "vm-101", cpu: "instance-total" }, 8000)],
        ],
        ["vsphere_vm_mem_vmmemctl_average", [s({ uuid: "4201aaaa-0000-0000-0000-000000000101" }, 2048)]],
        ["vsphere_host_cpu_usage_average", [s(hostLabels, 78.5)]],
        ["vsphere_host_mem_usage_average", [s(hostLabels, 62)]],
        ["vsphere_host_mem_swapinRate_average", [s(hostLabels, 40)]],
        ["vsphere_host_mem_state_latest", [s(hostLabels, 3)]],
      ]),
    );
    const v101 = view.vms.get("vm-101")!;
    expect(v101.metrics?.cpuReadyPercent).to.be.closeTo(10, 1e-9);
    expect(v101.metrics?.balloonMiB).to.equal(2);
    const h = view.hosts.get("host-11")!.metrics!;
    expect(h.cpuUsagePercent).to.be.closeTo(78.5, 1e-9);
    expect(h.memUsagePercent).to.be.closeTo(62, 1e-9);
    expect(h.swapInKBps).to.equal(40);
    expect(h.memState).to.equal("hard");
    expect(h.sampledAtMs).to.equal(T - 5_000);
  });

  it("joins a VM by moid when its uuid label is missing or unknown", () => {
    const view = buildTelegrafInventory(
      base,
      new Map([
        ["vsphere_vm_cpu_ready_summation", [s({ moid: "vm-102", uuid: "ffffffff-0000-0000-0000-000000000000" }, 2000)]],
        ["vsphere_host_cpu_usage_average", [s(hostLabels, 10)]],
      ]),
    );
    // 2000 / 20 000 / 2 = 5 %
    expect(view.vms.get("vm-102")?.metrics?.cpuReadyPercent).to.be.closeTo(5, 1e-9);
  });

  const unknown: Array<{ name: string; series: Map<string, PromSample[]>; check: (v: InventoryView) => void }> = [
    {
      name: "given no host series at all, the host has no metrics (no opinion)",
      series: new Map([["vsphere_vm_cpu_ready_summation", [s({ moid: "vm-101" }, 8000)]]]),
      check: (v) => expect(v.hosts.get("host-11")?.metrics).to.equal(undefined),
    },
    {
      name: "given no mem.usage series, memory usage is unknown, not 0",
      series: new Map([["vsphere_host_cpu_usage_average", [s(hostLabels, 10)]]]),
      check: (v) => expect(v.hosts.get("host-11")?.metrics).to.not.have.property("memUsagePercent"),
    },
    {
      name: "given series of a host vCenter did not list, ignores them",
      series: new Map([["vsphere_host_cpu_usage_average", [s({ moid: "host-99" }, 99)]]]),
      check: (v) => expect([...v.hosts.keys()]).to.deep.equal(["host-11"]),
    },
    {
      name: "given one stale host series, the host's sample time is the oldest",
      series: new Map([
        ["vsphere_host_cpu_usage_average", [s(hostLabels, 10)]],
        ["vsphere_host_mem_usage_average", [s(hostLabels, 10, T - 600_000)]],
      ]),
      check: (v) => expect(v.hosts.get("host-11")?.metrics?.sampledAtMs).to.equal(T - 600_000),
    },
  ];
  for (const c of unknown) it(c.name, () => c.check(buildTelegrafInventory(base, c.series)));

  it("keeps the inventory from vCenter: hardware, state, UUIDs and poll time", () => {
    const view = buildTelegrafInventory(base, new Map());
    const h = view.hosts.get("host-11")!;
    expect([h.cpuCores, h.cpuMhzPerCore, h.memoryMiB, h.clusterName, h.polledAtMs]).to.deep.equal([32, 2600, 262_144, "prod", T]);
    // (4 + 2) vCPU / 32 cores
    expect(h.vcpuPerPcpu).to.be.closeTo(6 / 32, 1e-9);
    expect(view.vms.get("vm-101")?.biosUuid).to.equal("4201aaaa-0000-0000-0000-000000000101");
  });
});
