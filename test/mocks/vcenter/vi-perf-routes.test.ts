import { expect } from "chai";
import type { MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import { VI, getWith, smallScenario, startSmall, viLogin } from "./mock-vcenter-client.js";

const REQUIRED = [
  "cpu.ready.summation",
  "cpu.usage.average",
  "mem.usage.average",
  "mem.vmmemctl.average",
  "mem.swapped.average",
  "mem.swapinRate.average",
  "mem.state.latest",
];
type Info = {
  _typeName: string;
  key: number;
  nameInfo: { key: string; label: string; summary: string };
  groupInfo: { key: string };
  unitInfo: { key: string };
  rollupType: string;
  statsType: string;
  level: number;
};
const fullName = (c: Info) => `${c.groupInfo.key}.${c.nameInfo.key}.${c.rollupType}`;

describe("mock vCenter: VI/JSON perfCounter and HostSystem summary", () => {
  let vc: MockVcenterHandle;
  let token: string;
  afterEach(() => vc.close());

  const offsets = [
    { name: "the default offset", offset: undefined, readyKey: 7013 },
    { name: "counterKeyOffset 500", offset: 500, readyKey: 513 },
  ];
  for (const c of offsets) {
    it(`given ${c.name}, the catalogue keys follow it (cpu.ready.summation = ${c.readyKey})`, async () => {
      vc = await startSmall({ scenario: smallScenario(c.offset === undefined ? {} : { counterKeyOffset: c.offset }) });
      token = await viLogin(vc.url);
      const r = await getWith(`${vc.url}${VI}/PerformanceManager/PerfMgr/perfCounter`, token);
      expect(r.status).to.equal(200);
      const infos = r.json as Info[];
      const byName = new Map(infos.map((i) => [fullName(i), i]));
      for (const n of REQUIRED) expect(byName.has(n), n).to.equal(true);
      expect(byName.get("cpu.ready.summation")?.key).to.equal(c.readyKey);
      expect(new Set(infos.map((i) => i.key)).size).to.equal(infos.length);
      expect(infos.length).to.be.greaterThan(REQUIRED.length);
      const ready = byName.get("cpu.ready.summation")!;
      expect(ready).to.include({ _typeName: "PerfCounterInfo", rollupType: "summation", statsType: "delta" });
      expect(ready.unitInfo.key).to.equal("millisecond");
    });
  }

  it("given a host, summary is a HostListSummary with bytes, MHz, MiB and lower camel case states", async () => {
    vc = await startSmall();
    token = await viLogin(vc.url);
    vc.controls.setHostState("host-1", { inMaintenance: true });
    const r = await getWith(`${vc.url}${VI}/HostSystem/host-1/summary`, token);
    expect(r.status).to.equal(200);
    expect(r.json._typeName).to.equal("HostListSummary");
    expect(r.json.hardware).to.include({ numCpuCores: 16, cpuMhz: 2000, memorySize: 262144 * 1024 * 1024 });
    // 20.67 % of 16 x 2000 MHz = 6614.4 -> 6614; 55.5 % of 262144 MiB = 145489.92 -> 145490
    expect(r.json.quickStats).to.include({ overallCpuUsage: 6614, overallMemoryUsage: 145490 });
    expect(r.json.runtime).to.include({ inMaintenanceMode: true, connectionState: "connected" });
  });

  it("given a NOT_RESPONDING host, connectionState is notResponding", async () => {
    vc = await startSmall();
    token = await viLogin(vc.url);
    vc.controls.setHostState("host-2", { connectionState: "NOT_RESPONDING" });
    const r = await getWith(`${vc.url}${VI}/HostSystem/host-2/summary`, token);
    expect(r.json.runtime.connectionState).to.equal("notResponding");
  });

  it("given an unknown host, answers a ManagedObjectNotFound fault", async () => {
    vc = await startSmall();
    token = await viLogin(vc.url);
    const r = await getWith(`${vc.url}${VI}/HostSystem/host-404/summary`, token);
    expect(r.status).to.equal(500);
    expect(r.json._typeName).to.equal("ManagedObjectNotFound");
    expect(r.json.obj).to.deep.equal({ _typeName: "ManagedObjectReference", type: "HostSystem", value: "host-404" });
  });
});
