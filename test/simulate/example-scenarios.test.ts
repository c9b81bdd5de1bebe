import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { buildWorld } from "../../src/simulate/build-world.js";
import { loadScenario } from "../../src/simulate/load-scenario.js";
import { simulateAll } from "../../src/simulate/run-simulation.js";
import { scenarioSchema } from "../../src/simulate/scenario.js";

const dir = new URL("../../../examples/scenarios/", import.meta.url);

describe("examples/scenarios", () => {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
    it(`${file} loads as a simulation scenario`, () => expect(loadScenario(new URL(file, dir).pathname).name).to.equal(file.replace(/\.yaml$/, "")));
  }

  it("your-cluster.yaml (docs/scenarios.md's worked example) runs: one hour, every strategy places its pods", () => {
    const scenario = scenarioSchema.parse({ ...parse(readFileSync(new URL("your-cluster.yaml", dir), "utf8")), durationHours: 1, maintenance: [] });
    const world = buildWorld(scenario);
    expect(world.hosts.count).to.equal(6);
    expect(world.nodes.count).to.equal(12);
    const results = simulateAll(world, 1);
    expect(results.map((r) => r.strategy)).to.deep.equal(["default", "vm-load-aware", "hvx", "hvx+rebalance"]);
    for (const r of results) expect(r.figures.placedPods, r.strategy).to.be.greaterThan(0);
  });
});
