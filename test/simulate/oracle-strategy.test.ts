import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { FutureLoad } from "../../src/simulate/future-load.js";
import { drsSettingsFor, productionPolicy } from "../../src/simulate/run-simulation.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { UsageSeries } from "../../src/simulate/usage-series.js";
import { smallScenario } from "./fixtures.js";

/**
 * Two hosts of 8 cores, one 8-vCPU node VM each; host 0 also runs an 8-vCPU database at 100 % with High shares
 * (16 000 against the node VM's 8000): the node VM there is entitled to a third of 20 000 MHz, 2.7 cores.
 */
function twoHosts() {
  return buildWorld(
    smallScenario({
      durationHours: 1,
      hosts: { count: 2, cores: 8, mhzPerCore: 2500, memoryGiB: 128 },
      nodeVms: { perHost: 1, vcpus: 8, memoryGiB: 32 },
      noisyVms: [{ hosts: [0], perHost: 1, vcpus: 8, memoryGiB: 16, cpu: { mean: 100 }, cpuAllocation: { shares: "high" } }],
      workloads: [
        {
          name: "web",
          replicas: 4,
          cpuRequestMilli: 500,
          cpuLimitMilli: 2000,
          memoryRequestMiB: 256,
          memoryLimitMiB: 512,
          cpu: { mean: 1800, noiseCv: 0.02 },
          memory: { meanMiB: 200 },
          arrival: { startMinute: 1, spreadMinutes: 4 },
        },
      ],
    }),
  );
}

describe("oracle strategy (clairvoyant reference)", () => {
  for (const physics of ["overflow", "queueing"] as const) {
    it(`given a host whose database will keep it busy (${physics} physics), keeps the pods off it and has no contention`, () => {
      const world = twoHosts();
      const run = (strategy: "oracle" | "default") =>
        simulateStrategy({ world, strategy, seed: 1, policy: productionPolicy(), physics, drs: drsSettingsFor(world.scenario, false) });
      const oracle = run("oracle");
      const dflt = run("default");
      expect(oracle.figures.placedPods).to.equal(4);
      expect(oracle.figures.contendedOrSaturatedPodSeconds).to.equal(0);
      // default spreads the replicas over both nodes: host 0's node VM wants 2 x 1.8 + 0.15 cores, above its 2.7
      expect(dflt.figures.contendedPodSeconds).to.be.above(0);
    });
  }
});

describe("FutureLoad", () => {
  it("given the run's seed, holds at each sample the CPU use the run draws at that step (capped at the limit)", () => {
    const world = buildWorld(smallScenario());
    const future = new FutureLoad(world, 7, 3);
    const usage = new UsageSeries(world, 7);
    const S = future.samples;
    for (let step = 0; step < world.steps; step++) {
      usage.advance(step);
      if (step % 3 !== 0) continue;
      for (const p of [0, 5, 41]) {
        const want = Math.min(usage.podCpuMilli(p), world.pods.limCpuMilli[p]!);
        expect(future.podCpuMilli[p * S + step / 3]).to.be.closeTo(want, want * 1e-6 + 1e-6);
      }
      expect(future.noisyCpuPercent[step / 3]).to.be.closeTo(usage.noisyCpuPercent(0), 1e-4);
    }
  });
});
