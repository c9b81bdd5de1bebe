import { expect } from "chai";
import { assembleInventory, toConnectionState, type PolledHost } from "../../src/vsphere/assemble-inventory.js";
import type { EntitySample } from "../../src/vsphere/perf-samples.js";

const sample = (values: Record<string, number>): EntitySample => ({
  sampledAtMs: 1000,
  intervalS: 20,
  values: new Map(Object.entries(values)),
});
const host = (id: string, vms: PolledHost["vms"]): PolledHost => ({
  host: { host: id, name: `esx-${id}`, connection_state: "CONNECTED", power_state: "POWERED_ON" },
  clusterName: "prod-a",
  summary: {
    hardware: { numCpuCores: 8, cpuMhz: 2600, memorySize: 64 * 1024 ** 3 },
    runtime: { inMaintenanceMode: true, connectionState: "connected" },
  },
  vms,
});

describe("assembleInventory", () => {
  const view = assembleInventory({
    hosts: [
      host("host-1", [
        { vm: "vm-1", name: "w1", power_state: "POWERED_ON", cpu_count: 4, memory_size_MiB: 16384 },
        { vm: "vm-2", name: "w2", power_state: "POWERED_OFF", cpu_count: 16, memory_size_MiB: 65536 },
      ]),
      host("host-2", [{ vm: "vm-3", name: "w3", power_state: "POWERED_ON", cpu_count: 1, memory_size_MiB: 4096 }]),
    ],
    samples: new Map([
      ["vm-1", sample({ "cpu.ready.summation": 8000 })], // 8000/20000/4*100 = 10 %
      ["vm-3", sample({ "cpu.ready.summation": 400 })], // 400/20000/1*100 = 2 %
      ["host-1", sample({ "cpu.usage.average": 2067, "mem.state.latest": 1 })],
    ]),
    biosUuids: new Map([["vm-1", "4226abcd-0000-1111-2222-333344445555"]]),
    memStateScale: "five",
    polledAtMs: 5000,
  });

  it("given bytes of host memory, reports MiB, cores, MHz, maintenance and cluster", () => {
    expect(view.hosts.get("host-1")).to.deep.include({
      memoryMiB: 65536,
      cpuCores: 8,
      cpuMhzPerCore: 2600,
      inMaintenance: true,
      clusterName: "prod-a",
      connectionState: "CONNECTED",
    });
  });

  it("given one powered-on 4-vCPU VM of 16 GiB on 8 cores / 64 GiB, reports 0.5 and 0.25", () => {
    expect(view.hosts.get("host-1")).to.deep.include({ vcpuPerPcpu: 0.5, vramPerPram: 0.25 });
  });

  it("derives host and VM metrics from the samples", () => {
    expect(view.vms.get("vm-1")?.metrics?.cpuReadyPercent).to.equal(10);
    expect(view.hosts.get("host-1")?.metrics).to.deep.include({ cpuReadyPercent: 10, cpuUsagePercent: 20.67, memState: "clear" });
  });

  it("given a host without a host-level sample, leaves its metrics unknown even though its VM was sampled", () => {
    expect(view.vms.get("vm-3")?.metrics?.cpuReadyPercent).to.equal(2);
    expect(view.hosts.get("host-2")?.metrics).to.equal(undefined);
  });

  it("stamps every host with the poll's time, for the state rules' freshness", () => {
    expect([...view.hosts.values()].map((h) => h.polledAtMs)).to.deep.equal([5000, 5000]);
  });

  it("records placement and BIOS UUIDs", () => {
    expect(view.hosts.get("host-1")?.vmIds).to.deep.equal(["vm-1", "vm-2"]);
    expect(view.vms.get("vm-3")?.hostId).to.equal("host-2");
    expect(view.vms.get("vm-1")?.biosUuid).to.equal("4226abcd-0000-1111-2222-333344445555");
    expect(view.vms.get("vm-2")?.biosUuid).to.equal(undefined);
    expect(view.polledAtMs).to.equal(5000);
  });

  it("given a VM listed under two hosts mid-vMotion, keeps it once, on the last host", () => {
    const vm = { vm: "vm-9", name: "w9", power_state: "POWERED_ON", cpu_count: 2, memory_size_MiB: 1024 };
    const v = assembleInventory({
      hosts: [host("host-1", [vm]), host("host-2", [vm])],
      samples: new Map(),
      biosUuids: new Map(),
      memStateScale: "five",
      polledAtMs: 0,
    });
    expect(v.vms.get("vm-9")?.hostId).to.equal("host-2");
    expect(v.hosts.get("host-1")?.vmIds).to.deep.equal([]);
    expect(v.hosts.get("host-2")?.vmIds).to.deep.equal(["vm-9"]);
  });
});

describe("toConnectionState", () => {
  const cases: Array<{ automation: string; vi: string | undefined; want: string }> = [
    { automation: "CONNECTED", vi: undefined, want: "CONNECTED" },
    { automation: "NOT_RESPONDING", vi: "connected", want: "NOT_RESPONDING" },
    { automation: "weird", vi: "disconnected", want: "DISCONNECTED" },
    { automation: "weird", vi: undefined, want: "NOT_RESPONDING" },
  ];
  for (const c of cases)
    it(`given ${c.automation} / ${c.vi}, returns ${c.want}`, () => expect(toConnectionState(c.automation, c.vi)).to.equal(c.want));
});
