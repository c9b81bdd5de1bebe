import { expect } from "chai";
import { readFileSync } from "node:fs";
import { ScenarioError, demoScenarioPath, loadScenario, parseScenario } from "../../../mocks/vcenter/index.js";

const HOST = "{ id: host-1, name: esx-1, cpuCores: 8, cpuMhz: 2000, memoryMiB: 1024 }";
const VM = (extra = "") =>
  `{ id: vm-1, name: a, biosUuid: 4226aaaa-0000-4000-8000-000000000001, vcpus: 2, memoryMiB: 512, host: host-1${extra} }`;

const errorMessage = (text: string): string => {
  try {
    parseScenario(text);
  } catch (err) {
    expect(err).to.be.instanceOf(ScenarioError);
    return (err as Error).message;
  }
  throw new Error("expected a ScenarioError");
};

describe("parseScenario", () => {
  it("given a simulation scenario (examples/scenarios/), says it expected an inventory scenario and where those are", () => {
    const text = readFileSync(new URL("../../../../examples/scenarios/steady.yaml", import.meta.url), "utf8");
    const message = errorMessage(text);
    expect(message).to.include("invalid mock vCenter inventory scenario");
    expect(message).to.include("this is a simulation scenario (examples/scenarios/");
    expect(message).to.include("expects an inventory scenario (mocks/vcenter/scenarios/");
  });

  const bad: Array<{ name: string; text: string; want: string }> = [
    {
      name: "a missing host field",
      text: "hosts: [{ id: host-1, name: esx-1, cpuMhz: 2000, memoryMiB: 1024 }]",
      want: "hosts.0.cpuCores: Required",
    },
    {
      name: "a string for a number",
      text: "hosts: [{ id: host-1, name: esx-1, cpuCores: many, cpuMhz: 2000, memoryMiB: 1024 }]",
      want: "hosts.0.cpuCores: Expected number, received string",
    },
    {
      name: "a VM on an unknown host",
      text: `hosts: [${HOST}]\nvms: [${VM().replace("host: host-1", "host: host-9")}]`,
      want: "vms.0.host: unknown host host-9",
    },
    {
      name: "a host in an unknown cluster",
      text: `hosts: [${HOST.replace("}", ", cluster: domain-c1 }")}]`,
      want: "hosts.0.cluster: unknown cluster domain-c1",
    },
    { name: "duplicate VM ids", text: `hosts: [${HOST}]\nvms: [${VM()}, ${VM()}]`, want: "vms.1.id: duplicate id vm-1" },
    {
      name: "a bad VM id",
      text: `hosts: [${HOST}]\nvms: [${VM().replace("id: vm-1", "id: myvm")}]`,
      want: "vms.0.id: must look like vm-<number>",
    },
    {
      name: "a bad BIOS UUID",
      text: `hosts: [${HOST}]\nvms: [${VM().replace("4226aaaa-0000-4000-8000-000000000001", "nope")}]`,
      want: "vms.0.biosUuid: must be a UUID",
    },
    { name: "an unknown key", text: "hostz: []", want: "Unrecognized key(s) in object: 'hostz'" },
    {
      name: "a bad memState",
      text: `hosts: [${HOST.replace("}", ", metrics: { memState: melting } }")}]`,
      want: "hosts.0.metrics.memState",
    },
    {
      name: "steps out of order",
      text: `hosts: [${HOST}]\nvms: [${VM(", metrics: { readyPercent: [{ atSeconds: 60, value: 1 }, { atSeconds: 0, value: 2 }] }")}]`,
      want: "vms.0.metrics.readyPercent",
    },
    { name: "an error rate above 1", text: "faults: { errorRate: 2 }", want: "faults.errorRate: Number must be less than or equal to 1" },
    { name: "broken YAML", text: "hosts: [", want: "YAML:" },
  ];
  for (const c of bad) {
    it(`given ${c.name}, throws ScenarioError naming "${c.want}"`, () => {
      expect(errorMessage(c.text)).to.contain(c.want);
    });
  }

  it("given an empty file, returns the defaults (credentials, offset 7000, no faults)", () => {
    const s = parseScenario("");
    expect(s.credentials).to.deep.equal({ username: "administrator@vsphere.local", password: "hvx-demo" });
    expect(s.counterKeyOffset).to.equal(7000);
    expect(s.faults).to.include({ errorRate: 0, latencyMs: 0, fixedStatus: null, sessionIdleSeconds: 1800 });
  });

  it("given a missing file, loadScenario throws ScenarioError naming the path", () => {
    expect(() => loadScenario("/nonexistent/scenario.yaml")).to.throw(ScenarioError, "/nonexistent/scenario.yaml");
  });

  it("loads the demo scenario: prod-a, esx-01..13, k8s-worker-01..12 two per host on esx-01..06, 13..19 one per host on esx-07..13, lower-case 4226 UUIDs", () => {
    const s = loadScenario(demoScenarioPath());
    expect(s.clusters.map((c) => c.name)).to.deep.equal(["prod-a"]);
    expect(s.hosts.map((h) => `${h.id}=${h.name}`)).to.deep.equal(
      Array.from({ length: 13 }, (_, i) => `host-${11 + i}=esx-${String(1 + i).padStart(2, "0")}`),
    );
    for (const h of s.hosts) expect([h.cpuCores, h.cpuMhz, h.memoryMiB]).to.deep.equal([32, 2600, 524288]);
    const workers = s.vms.filter((v) => v.name.startsWith("k8s-worker-"));
    expect(workers).to.have.length(19);
    workers.forEach((v, i) => {
      expect(v.id).to.equal(`vm-${101 + i}`);
      expect(v.name).to.equal(`k8s-worker-${String(i + 1).padStart(2, "0")}`);
      // two per host on host-11..16, then one per host on host-17..23
      expect(v.host).to.equal(`host-${i < 12 ? 11 + Math.floor(i / 2) : 17 + (i - 12)}`);
      expect([v.vcpus, v.memoryMiB]).to.deep.equal([8, 32768]);
    });
    for (const v of s.vms) expect(v.biosUuid).to.match(/^4226[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(s.vms.some((v) => v.name === "sql-01")).to.equal(true);
    expect(new Set(s.vms.map((v) => v.biosUuid)).size).to.equal(s.vms.length);
  });
});
