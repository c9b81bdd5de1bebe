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
    expect(readdirSync(SCENARIOS).sort()).to.include.members([
      "diurnal-correlated.yaml",
      "noisy-neighbours.yaml",
      "steady.yaml",
      "vmotion-storm.yaml",
    ]);
  });
  const bad: Array<{ name: string; text: string; want: RegExp }> = [
    { name: "not YAML", text: "a: [", want: /not valid YAML/ },
    { name: "not a mapping", text: "- 1", want: /\(top level\)/ },
    {
      name: "missing hosts",
      text: "name: x\ndurationHours: 1\nnodeVms: {perHost: 1, vcpus: 1, memoryGiB: 1}\nworkloads: []",
      want: /hosts: Required/,
    },
    { name: "unknown key (typo)", text: "name: x\ndurationHours: 1\nhost: {}\n", want: /Unrecognized key/ },
    {
      name: "maintenance of a host that does not exist",
      text: minimal("maintenance: [{host: 9, startMinute: 0, durationMinutes: 5}]"),
      want: /maintenance.0.host: no host 9/,
    },
    { name: "request above limit", text: minimal("", "cpuRequestMilli: 3000"), want: /requests must not exceed limits/ },
    { name: "an unknown DRS model", text: minimal("drs: {enabled: true, model: vm-happiness}"), want: /drs.model/ },
    {
      name: "a noisy VM group with both cpu and trace",
      text: minimal("noisyVms: [{vcpus: 2, memoryGiB: 2, cpu: {mean: 1}, trace: {dir: t}}]"),
      want: /noisyVms.0: give exactly one of cpu and trace/,
    },
    {
      name: "a noisy VM group with neither cpu nor trace",
      text: minimal("noisyVms: [{vcpus: 2, memoryGiB: 2}]"),
      want: /noisyVms.0: give exactly one of cpu and trace/,
    },
    { name: "a DRS migration threshold outside 1..5", text: minimal("drs: {migrationThreshold: 6}"), want: /drs.migrationThreshold/ },
    {
      name: "unknown CPU shares level",
      text: minimal("noisyVms: [{vcpus: 2, memoryGiB: 2, cpu: {mean: 1}, cpuAllocation: {shares: huge}}]"),
      want: /noisyVms.0.cpuAllocation.shares/,
    },
  ];
  for (const c of bad) {
    it(`given ${c.name}, throws a ScenarioError naming the problem`, () => {
      expect(() => parseScenario(c.text)).to.throw(ScenarioError, c.want);
    });
  }
  it("defaults: Normal CPU shares, no reservation or limit, Trimaran fed by metrics-server, DRS off (every 5 min, threshold 3), 2 s bind latency", () => {
    const s = parseScenario(minimal(""));
    expect(s.nodeVms.cpuAllocation).to.deep.equal({ shares: "normal", reservationMhz: 0 });
    expect(s.vmLoadAware).to.deep.equal({ metricsAgeSeconds: 60, metricsWindowSeconds: 20, balancedAllocation: false });
    expect(s.drs).to.deep.equal({
      enabled: false,
      model: "load-stddev",
      migrationThreshold: 3,
      maxMovesPerHostPerPass: 8,
      minGoodness: 0.001,
      costBenefit: true,
      vmotionMiBPerSecond: 1192,
      vmReadyPercent: 5,
    });
    expect(s.bindLatencySeconds).to.equal(2);
    expect(parseScenario(minimal("drs: {enabled: true}")).drs.enabled).to.equal(true);
  });
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
