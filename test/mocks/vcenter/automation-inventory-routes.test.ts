import { expect } from "chai";
import {
  MAX_VMS,
  demoScenarioPath,
  generateScenario,
  loadScenario,
  startMockVcenter,
  type MockVcenterHandle,
} from "../../../mocks/vcenter/index.js";
import { automationLogin, getWith, startSmall } from "./mock-vcenter-client.js";

describe("mock vCenter: Automation API inventory (demo scenario)", () => {
  let vc: MockVcenterHandle;
  let token: string;
  const get = (path: string) => getWith(`${vc.url}${path}`, token);
  before(async () => {
    vc = await startMockVcenter({ scenario: loadScenario(demoScenarioPath()) });
    token = await automationLogin(vc.url);
  });
  after(() => vc.close());

  const hostCases: Array<{ name: string; query: string; want: string[] }> = [
    { name: "no filter lists all thirteen hosts", query: "", want: Array.from({ length: 13 }, (_, i) => `host-${11 + i}`) },
    { name: "repeated hosts keys", query: "?hosts=host-12&hosts=host-14", want: ["host-12", "host-14"] },
    { name: "names", query: "?names=esx-03", want: ["host-13"] },
    { name: "clusters (ids)", query: "?clusters=domain-c8&names=esx-01", want: ["host-11"] },
    { name: "unknown cluster", query: "?clusters=domain-c999", want: [] },
    { name: "connection_states", query: "?connection_states=DISCONNECTED", want: [] },
  ];
  for (const c of hostCases) {
    it(`GET /api/vcenter/host, given ${c.name}, returns ${c.want.length} hosts`, async () => {
      const r = await get(`/api/vcenter/host${c.query}`);
      expect(r.status).to.equal(200);
      expect(r.json.map((h: { host: string }) => h.host)).to.deep.equal(c.want);
    });
  }

  it("GET /api/vcenter/host returns host summaries in the documented shape", async () => {
    const r = await get("/api/vcenter/host?hosts=host-11");
    expect(r.json).to.deep.equal([{ host: "host-11", name: "esx-01", connection_state: "CONNECTED", power_state: "POWERED_ON" }]);
  });

  it("given an unknown enum value in a filter, answers 400 INVALID_ARGUMENT", async () => {
    const r = await get("/api/vcenter/host?connection_states=connected");
    expect(r.status).to.equal(400);
    expect(r.json.error_type).to.equal("INVALID_ARGUMENT");
  });

  it("GET /api/vcenter/vm?hosts=host-11 lists that host's VMs, without any host field", async () => {
    const r = await get("/api/vcenter/vm?hosts=host-11");
    expect(r.json).to.deep.equal([
      { vm: "vm-101", name: "k8s-worker-01", power_state: "POWERED_ON", cpu_count: 8, memory_size_MiB: 32768 },
      { vm: "vm-102", name: "k8s-worker-02", power_state: "POWERED_ON", cpu_count: 8, memory_size_MiB: 32768 },
    ]);
  });

  const vmCases: Array<{ name: string; query: string; want: string[] }> = [
    // two workers per host in order; sql-01 sits on esx-02
    { name: "hosts=host-12", query: "?hosts=host-12", want: ["vm-103", "vm-104", "vm-201"] },
    { name: "vms", query: "?vms=vm-112&vms=vm-101", want: ["vm-101", "vm-112"] },
    { name: "names", query: "?names=sql-01", want: ["vm-201"] },
    { name: "power_states=POWERED_OFF", query: "?power_states=POWERED_OFF", want: ["vm-203"] },
    { name: "clusters and hosts", query: "?clusters=domain-c8&hosts=host-16", want: ["vm-111", "vm-112", "vm-203"] },
  ];
  for (const c of vmCases) {
    it(`GET /api/vcenter/vm, given ${c.name}, returns ${c.want.join(",")}`, async () => {
      const r = await get(`/api/vcenter/vm${c.query}`);
      expect(r.status).to.equal(200);
      expect(r.json.map((v: { vm: string }) => v.vm)).to.deep.equal(c.want);
    });
  }

  it("GET /api/vcenter/vm/{vm} returns identity, cpu.count, memory.size_MiB and power_state", async () => {
    const r = await get("/api/vcenter/vm/vm-101");
    expect(r.status).to.equal(200);
    expect(r.json.identity.name).to.equal("k8s-worker-01");
    expect(r.json.identity.bios_uuid).to.match(/^4226[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(r.json.identity.instance_uuid).to.match(/^50/);
    expect(r.json.cpu.count).to.equal(8);
    expect(r.json.memory.size_MiB).to.equal(32768);
    expect(r.json.power_state).to.equal("POWERED_ON");
    expect(r.json).not.to.have.property("host");
  });

  it("GET /api/vcenter/vm/{vm} of an unknown VM answers 404 NOT_FOUND and counts fetches per id", async () => {
    const before = vc.controls.stats().vmDetailFetches["vm-999"] ?? 0;
    const r = await get("/api/vcenter/vm/vm-999");
    expect(r.status).to.equal(404);
    expect(r.json.error_type).to.equal("NOT_FOUND");
    expect(vc.controls.stats().vmDetailFetches["vm-999"]).to.equal(before + 1);
  });

  const clusterCases = [
    { name: "no filter", query: "", want: 1 },
    { name: "names=prod-a", query: "?names=prod-a", want: 1 },
    { name: "clusters=domain-c1", query: "?clusters=domain-c1", want: 0 },
  ];
  for (const c of clusterCases) {
    it(`GET /api/vcenter/cluster, given ${c.name}, returns ${c.want}`, async () => {
      const r = await get(`/api/vcenter/cluster${c.query}`);
      expect(r.json).to.have.length(c.want);
      if (c.want === 1) expect(r.json[0]).to.deep.equal({ cluster: "domain-c8", name: "prod-a", ha_enabled: true, drs_enabled: true });
    });
  }

  it("counts requests per route pattern", () => {
    const s = vc.controls.stats();
    expect(s.requestsByRoute["GET /api/vcenter/vm/:vm"]).to.be.at.least(2);
    expect(s.requestsByRoute["POST /api/session"]).to.equal(1);
  });
});

describe("mock vCenter: Automation API list cap and vMotion", () => {
  it("given more than 4000 matching VMs, answers UNABLE_TO_ALLOCATE_RESOURCE; per-host listing stays under it", async () => {
    const vc = await startMockVcenter({ scenario: generateScenario({ hosts: 201, vmsPerHost: 20 }) }); // 4020 VMs
    try {
      const token = await automationLogin(vc.url);
      const all = await getWith(`${vc.url}/api/vcenter/vm`, token);
      expect(all.status).to.equal(500);
      expect(all.json.error_type).to.equal("UNABLE_TO_ALLOCATE_RESOURCE");
      const one = await getWith(`${vc.url}/api/vcenter/vm?hosts=host-1000`, token);
      expect(one.json).to.have.length(20);
      expect(MAX_VMS).to.equal(4000);
    } finally {
      await vc.close();
    }
  });

  it("given moveVm, the VM lists under its new host", async () => {
    const vc = await startSmall();
    try {
      const token = await automationLogin(vc.url);
      vc.controls.moveVm("vm-1", "host-2");
      const h1 = await getWith(`${vc.url}/api/vcenter/vm?hosts=host-1`, token);
      const h2 = await getWith(`${vc.url}/api/vcenter/vm?hosts=host-2`, token);
      expect(h1.json.map((v: { vm: string }) => v.vm)).to.deep.equal(["vm-2"]);
      expect(h2.json.map((v: { vm: string }) => v.vm)).to.deep.equal(["vm-1", "vm-3"]);
    } finally {
      await vc.close();
    }
  });

  it("given setHostState, connection_state and the connection_states filter follow", async () => {
    const vc = await startSmall();
    try {
      const token = await automationLogin(vc.url);
      vc.controls.setHostState("host-2", { connectionState: "NOT_RESPONDING" });
      const r = await getWith(`${vc.url}/api/vcenter/host?connection_states=NOT_RESPONDING`, token);
      expect(r.json).to.deep.equal([{ host: "host-2", name: "esx-2", connection_state: "NOT_RESPONDING" }]);
    } finally {
      await vc.close();
    }
  });
});
