import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { drsSettingsFor, productionPolicy } from "../../src/simulate/run-simulation.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { smallScenario } from "./fixtures.js";

describe("RunTally: guest saturation", () => {
  const run = (cpuMean: number) => {
    // one host of 16 idle cores, one 2-vCPU node VM, two pods: ESXi has room, the guest may not
    const world = buildWorld(
      smallScenario({
        durationHours: 0.5,
        hosts: { count: 1, cores: 16, mhzPerCore: 2500, memoryGiB: 64 },
        nodeVms: { perHost: 1, vcpus: 2, memoryGiB: 16 },
        noisyVms: [],
        workloads: [
          {
            name: "web",
            replicas: 2,
            cpuRequestMilli: 400,
            cpuLimitMilli: 2000,
            memoryRequestMiB: 256,
            memoryLimitMiB: 512,
            cpu: { mean: cpuMean, noiseCv: 0.01 },
            memory: { meanMiB: 200 },
            arrival: { startMinute: 0, spreadMinutes: 1 },
          },
        ],
      }),
    );
    return simulateStrategy({ world, strategy: "default", seed: 1, policy: productionPolicy(), drs: drsSettingsFor(world.scenario, false) })
      .figures;
  };

  it("given pods that use more than the node VM's vCPUs (2 x 1500m + 150m > 2000m), counts them saturated but not ready-contended", () => {
    const f = run(1500);
    expect(f.contendedPodSeconds).to.equal(0);
    expect(f.saturatedPodSeconds).to.be.above(0);
    expect(f.contendedOrSaturatedPodSeconds).to.equal(f.saturatedPodSeconds);
  });

  it("given pods within the node VM's vCPUs (2 x 500m + 150m), counts nothing", () => {
    const f = run(500);
    expect(f.saturatedPodSeconds).to.equal(0);
    expect(f.contendedOrSaturatedPodSeconds).to.equal(0);
  });
});
