import { expect } from "chai";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadScenario, parseScenario } from "../../src/simulate/load-scenario.js";
import { ScenarioError } from "../../src/simulate/scenario-error.js";

const SCENARIOS = join(process.cwd(), "examples", "scenarios");

describe("parseScenario / loadScenario", () => {
  for (const file of ["steady.yaml", "diurnal-correlated.yaml", "noisy-neighbours.yaml", "vmotion-storm.yaml"]) {
    it(`bundled ${file} is valid`, () => expect(loadScenario(join(SCENARIOS, file)).name).to.equal(file.replace(".yaml", "")));
  }
  it("bundles exactly the four scenarios of the issue", () => {
    expect(readdirSync(SCENARIOS).sort()).to.include.members(["diurnal-correlated.yaml", "noisy-neighbours.yaml", "steady.yaml", "vmotion-storm.yaml"]);
  });
  const bad: Array<{ name: string; text: string; want: RegExp }> = [
    { name: "not YAML", text: "a: [", want: /not valid YAML/ },
    { name: "not a mapping", text: "- 1", want: /\(top level\)/ },
    { name: "missing hosts", text: "name: x\ndurationHours: 1\nnodeVms: {perHost: 1, vcpus: 1, memoryGiB: 1}\nworkloads: []", want: /hosts: Required/ },
    { name: "unknown key (typo)", text: "name: x\ndurationHours: 1\nhost: {}\n", want: /Unrecognized key/ },
    { name: "maintenance of a host that does not exist", text: minimal("maintenance: [{host: 9, startMinute: 0, durationMinutes: 5}]"), want: /maintenance.0.host: no host 9/ },
    { name: "request above limit", text: minimal("", "cpuRequestMilli: 3000"), want: /requests must not exceed limits/ },
  ];
  for (const c of bad) {
    it(`given ${c.name}, throws a ScenarioError naming the problem`, () => {
      expect(() => parseScenario(c.text)).to.throw(ScenarioError, c.want);
    });
  }
  it("given a missing file, says so without a stack of YAML errors", () => {
    expect(() => loadScenario("/nonexistent/x.yaml")).to.throw(ScenarioError, /cannot read scenario file .*ENOENT/);
  });
});

function minimal(extra: string, request = "cpuRequestMilli: 100"): string {
  return [
    "name: x",
    "durationHours: 1",
    "hosts: {count: 2, cores: 4, mhzPerCore: 2000, memoryGiB: 16}",
    "nodeVms: {perHost: 1, vcpus: 2, memoryGiB: 4}",
    "workloads:",
    `  - {name: w, replicas: 1, ${request}, cpuLimitMilli: 2000, memoryRequestMiB: 10, memoryLimitMiB: 20, cpu: {mean: 1}, memory: {meanMiB: 1}}`,
    extra,
  ].join("\n");
}
