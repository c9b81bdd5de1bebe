import { expect } from "chai";
import type { MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import { toVmReservation, vmSummarySchema } from "../../../src/vsphere/vm-reservations.js";
import { VI, call, getWith, smallScenario, startSmall, viLogin } from "./mock-vcenter-client.js";

describe("mock vCenter: VI/JSON VirtualMachine summary", () => {
  let vc: MockVcenterHandle;
  afterEach(() => vc.close());

  it("given a VM with reservations in the scenario, summary.config carries them (MB, MHz) and hvx reads them", async () => {
    const base = smallScenario();
    vc = await startSmall({
      scenario: {
        ...base,
        vms: (base.vms ?? []).map((v) => (v.id === "vm-1" ? { ...v, memoryReservationMiB: 8192, cpuReservationMhz: 1000 } : v)),
      },
    });
    const token = await viLogin(vc.url);
    const r = await getWith(`${vc.url}${VI}/VirtualMachine/vm-1/summary`, token);
    expect(r.status).to.equal(200);
    expect(r.json._typeName).to.equal("VirtualMachineSummary");
    expect(r.json.config).to.include({
      _typeName: "VirtualMachineConfigSummary",
      memoryReservation: 8192,
      cpuReservation: 1000,
      memorySizeMB: 8192,
      numCpu: 4,
    });
    expect(toVmReservation(vmSummarySchema.parse(r.json))).to.deep.equal({ memoryReservationMiB: 8192, cpuReservationMhz: 1000 });
  });

  it("given a VM without reservations in the scenario, they are 0", async () => {
    vc = await startSmall();
    const token = await viLogin(vc.url);
    const r = await getWith(`${vc.url}${VI}/VirtualMachine/vm-2/summary`, token);
    expect(r.json.config).to.include({ memoryReservation: 0, cpuReservation: 0 });
  });

  it("given an unknown VM, answers a ManagedObjectNotFound fault", async () => {
    vc = await startSmall();
    const token = await viLogin(vc.url);
    const r = await getWith(`${vc.url}${VI}/VirtualMachine/vm-404/summary`, token);
    expect(r.status).to.equal(500);
    expect(r.json._typeName).to.equal("ManagedObjectNotFound");
    expect(r.json.obj).to.deep.include({ type: "VirtualMachine", value: "vm-404" });
  });

  it("given no session, refuses like the other VI/JSON routes", async () => {
    vc = await startSmall();
    const r = await call(`${vc.url}${VI}/VirtualMachine/vm-1/summary`);
    expect(r.status).to.not.equal(200);
  });
});
