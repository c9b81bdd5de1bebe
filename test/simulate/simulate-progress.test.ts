import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { simulateSeeds } from "../../src/simulate/run-simulation.js";
import { smallScenario } from "./fixtures.js";

describe("simulateSeeds progress", () => {
  it("given 2 seeds under both physics, tells each run before it starts, in order, 4 in all", () => {
    const steps: string[] = [];
    simulateSeeds(buildWorld(smallScenario()), 7, 2, ["overflow", "queueing"], undefined, "off", undefined, (p) =>
      steps.push(`${p.done}/${p.total} seed ${p.seed} ${p.physics}`),
    );
    expect(steps).to.deep.equal(["0/4 seed 7 overflow", "1/4 seed 8 overflow", "2/4 seed 7 queueing", "3/4 seed 8 queueing"]);
  });
});
