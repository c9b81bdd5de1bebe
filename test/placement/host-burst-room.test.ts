import { expect } from "chai";
import type { PodView } from "../../src/model/cluster.js";
import { hostBurstRoomOf } from "../../src/placement/host-burst-room.js";
import { podTotals } from "../../src/placement/pod-totals.js";
import { amounts, podView } from "../fixtures/cluster.js";
import { hostView, vmView } from "../fixtures/inventory.js";

// A 32-core host at 2600 MHz: capacity 83 200 MHz. Two node VMs (vm-1, vm-2) and, when a case
// says so, a non-node VM vm-9 of 8 vCPUs (at most 8 x 2600 = 20 800 MHz).
const nodeVm = (id: string) => vmView({ id, hostId: "host-21", vcpus: 16 });
const otherVm = vmView({ id: "vm-9", name: "db-1", hostId: "host-21", vcpus: 8 });
const NODE_VMS = new Set(["vm-1", "vm-2"]);
const api = (cpuCores: number) => podView({ ownerKey: "ReplicaSet/shop/api", expectedDemand: amounts(cpuCores, 1) });
const web = (cpuCores: number) => podView({ ownerKey: "ReplicaSet/shop/web", expectedDemand: amounts(cpuCores, 1) });

describe("hostBurstRoomOf", () => {
  const cases: Array<{
    name: string;
    usagePercent: number | undefined;
    withOther: boolean;
    pods: PodView[];
    want: { nonKubernetesMhz: number; roomMhz: number } | undefined;
  }> = [
    // no VM beyond the node VMs: nothing outside Kubernetes, whatever the usage
    {
      name: "given only node VMs, returns the whole capacity as room",
      usagePercent: 90,
      withOther: false,
      pods: [api(1)],
      want: { nonKubernetesMhz: 0, roomMhz: 83_200 },
    },
    {
      name: "given only node VMs and no sample, still returns the whole capacity",
      usagePercent: undefined,
      withOther: false,
      pods: [],
      want: { nonKubernetesMhz: 0, roomMhz: 83_200 },
    },
    // 25 % of 83 200 = 20 800 used; pods expect 2 x 2600 = 5200; 20 800 - 5200 = 15 600 beyond the pods
    {
      name: "given a non-node VM and usage beyond the pods' demand, returns that excess as non-Kubernetes load",
      usagePercent: 25,
      withOther: true,
      pods: [api(1), web(1)],
      want: { nonKubernetesMhz: 15_600, roomMhz: 67_600 },
    },
    // 90 % of 83 200 = 74 880; minus 5200 = 69 680, capped at the VM's 8 x 2600 = 20 800
    {
      name: "given more excess than the non-node VMs' vCPUs can use, returns their vCPUs' worth",
      usagePercent: 90,
      withOther: true,
      pods: [api(1), web(1)],
      want: { nonKubernetesMhz: 20_800, roomMhz: 62_400 },
    },
    // 5 % of 83 200 = 4160 < 5200 of pods: nothing is left for the other VM
    {
      name: "given usage below the pods' demand, returns no non-Kubernetes load",
      usagePercent: 5,
      withOther: true,
      pods: [api(1), web(1)],
      want: { nonKubernetesMhz: 0, roomMhz: 83_200 },
    },
    {
      name: "given a non-node VM but no usage sample, returns undefined (no opinion)",
      usagePercent: undefined,
      withOther: true,
      pods: [],
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const vms = [nodeVm("vm-1"), nodeVm("vm-2"), ...(c.withOther ? [otherVm] : [])];
      const host = hostView({
        vmIds: vms.map((v) => v.id),
        metrics: c.usagePercent === undefined ? { cpuUsagePercent: undefined } : { cpuUsagePercent: c.usagePercent },
      });
      const room = hostBurstRoomOf(host, new Map(vms.map((v) => [v.id, v])), NODE_VMS, podTotals(c.pods));
      if (c.want === undefined) return expect(room).to.equal(undefined);
      expect({ nonKubernetesMhz: Math.round(room!.nonKubernetesMhz), roomMhz: Math.round(room!.roomMhz) }).to.deep.equal(c.want);
    });
  }

  it("given replicas of two groups, a Job's pods and a terminal pod, returns each long-lived group's CPU limits", () => {
    const host = hostView({ vmIds: ["vm-1"] });
    const limited = (pod: PodView, cpuCores: number): PodView => ({ ...pod, limits: amounts(cpuCores, 2) });
    const job = podView({ ownerKey: "Job/shop/nightly-report", limits: amounts(8, 2) });
    const pods = [limited(api(0.5), 2), limited(api(0.5), 2), limited(web(1), 1.5), job, { ...limited(api(4), 4), terminal: true }];
    const room = hostBurstRoomOf(host, new Map([["vm-1", nodeVm("vm-1")]]), new Set(["vm-1"]), podTotals(pods));
    expect([...room!.burstByOwnerMilli]).to.deep.equal([
      ["ReplicaSet/shop/api", 4000],
      ["ReplicaSet/shop/web", 1500],
    ]);
  });

  it("given a trusted daily peak above the present usage, takes the other VMs' load at that peak", () => {
    // 25 % now, 60 % at the busiest half hour: 0.6 x 83 200 = 49 920 - 2600 of pods = 47 320, capped at 20 800
    const vms = [nodeVm("vm-1"), otherVm];
    const host = hostView({ vmIds: ["vm-1", "vm-9"], metrics: { cpuUsagePercent: 25 } });
    const room = hostBurstRoomOf(host, new Map(vms.map((v) => [v.id, v])), new Set(["vm-1"]), podTotals([api(1)]), 60);
    expect(room!.nonKubernetesMhz).to.equal(20_800);
    // a peak below the present changes nothing: 20 800 - 2600 = 18 200
    expect(
      hostBurstRoomOf(host, new Map(vms.map((v) => [v.id, v])), new Set(["vm-1"]), podTotals([api(1)]), 10)!.nonKubernetesMhz,
    ).to.equal(18_200);
  });

  it("given a powered-off non-node VM, returns no non-Kubernetes load", () => {
    const off = { ...otherVm, powerState: "POWERED_OFF" };
    const host = hostView({ vmIds: ["vm-1", "vm-9"], metrics: { cpuUsagePercent: 80 } });
    const room = hostBurstRoomOf(
      host,
      new Map([
        ["vm-1", nodeVm("vm-1")],
        ["vm-9", off],
      ]),
      new Set(["vm-1"]),
      podTotals([]),
    );
    expect(room!.nonKubernetesMhz).to.equal(0);
  });

  it("given a host without cores, returns undefined (no opinion)", () => {
    expect(hostBurstRoomOf(hostView({ cpuCores: 0 }), new Map(), new Set(), podTotals([]))).to.equal(undefined);
  });
});
