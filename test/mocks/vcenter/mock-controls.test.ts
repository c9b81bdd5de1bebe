import { expect } from "chai";
import type { MockVcenterHandle } from "../../../mocks/vcenter/index.js";
import { automationLogin, getWith, startSmall } from "./mock-vcenter-client.js";

describe("MockVcenterControls", () => {
  let vc: MockVcenterHandle;
  beforeEach(async () => {
    vc = await startSmall();
  });
  afterEach(() => vc.close());

  const throws: Array<{ name: string; act: (h: MockVcenterHandle) => void; want: RegExp }> = [
    { name: "moveVm to an unknown host", act: (h) => h.controls.moveVm("vm-1", "host-9"), want: /unknown host host-9/ },
    { name: "moveVm of an unknown VM", act: (h) => h.controls.moveVm("vm-9", "host-1"), want: /unknown vm vm-9/ },
    {
      name: "setHostMetric with a bad memState",
      act: (h) => h.controls.setHostMetric("host-1", "memState", "melting" as never),
      want: /Invalid/,
    },
    { name: "setVmMetric on an unknown VM", act: (h) => h.controls.setVmMetric("vm-9", "readyPercent", 1), want: /unknown vm/ },
    { name: "setFaults with an error rate of 2", act: (h) => h.controls.setFaults({ errorRate: 2 }), want: /less than or equal to 1/ },
    {
      name: "setHostState on an unknown host",
      act: (h) => h.controls.setHostState("host-9", { inMaintenance: true }),
      want: /unknown host/,
    },
  ];
  for (const c of throws) it(`given ${c.name}, throws`, () => expect(() => c.act(vc)).to.throw(c.want));

  it("given removeHost, vCenter no longer lists the host nor the VMs on it; an unknown host throws", async () => {
    const token = await automationLogin(vc.url);
    vc.controls.removeHost("host-1");
    const hosts = (await getWith(`${vc.url}/api/vcenter/host`, token)).json as Array<{ host: string }>;
    const vms = (await getWith(`${vc.url}/api/vcenter/vm`, token)).json as Array<{ vm: string }>;
    expect(hosts.map((h) => h.host)).to.deep.equal(["host-2"]);
    expect(vms.map((v) => v.vm)).to.deep.equal(["vm-3"]);
    expect(() => vc.controls.removeHost("host-1")).to.throw(/unknown host host-1/);
  });

  it("stats() returns a copy that later calls do not change", () => {
    const s = vc.controls.stats();
    s.queryPerfCalls = 99;
    expect(vc.controls.stats().queryPerfCalls).to.equal(0);
  });
});
