import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scenarioKindOf, wrongScenarioForSimulate } from "../src/scenario-kind.js";

const repo = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

describe("scenarioKindOf", () => {
  const cases = [
    { name: "the demo inventory scenario's keys", raw: { credentials: {}, hosts: [{ id: "host-1" }], vms: [] }, want: "inventory" },
    {
      name: "a simulation scenario's keys",
      raw: { name: "s", durationHours: 24, hosts: { count: 8 }, nodeVms: {}, workloads: [] },
      want: "simulation",
    },
    { name: "an empty mapping", raw: {}, want: "unknown" },
    { name: "a list", raw: [1], want: "unknown" },
  ];
  for (const c of cases) it(`given ${c.name}, returns ${c.want}`, () => expect(scenarioKindOf(c.raw)).to.equal(c.want));
});

describe("wrongScenarioForSimulate", () => {
  it("given the mock vCenter's demo scenario, says it is an inventory scenario and what simulate expects", () => {
    expect(wrongScenarioForSimulate(repo("mocks/vcenter/scenarios/demo.yaml"))).to.match(
      /is an inventory scenario \(mocks\/vcenter\/scenarios\/.*; hvx simulate expects a simulation scenario \(examples\/scenarios\//,
    );
  });

  it("given a simulation scenario, has nothing to say", () => {
    expect(wrongScenarioForSimulate(repo("examples/scenarios/steady.yaml"))).to.equal(undefined);
  });

  it("given hvx simulate with the demo inventory scenario, exits 64 with that message before simulating", () => {
    const run = spawnSync(
      process.execPath,
      [
        repo("dist/src/cli.js"),
        "simulate",
        "--scenario",
        repo("mocks/vcenter/scenarios/demo.yaml"),
        "--seed",
        "1",
        "--out",
        "/tmp/hvx-never-written",
      ],
      { encoding: "utf8", timeout: 15_000 },
    );
    expect(run.status).to.equal(64);
    expect(run.stderr).to.match(/hvx simulate expects a simulation scenario/);
  });
});
