import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { productionPolicy } from "../../src/simulate/run-simulation.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { smallScenario } from "./fixtures.js";

describe("simulateStrategy", () => {
  const policy = productionPolicy();

  it("given pods whose memory use outgrows the node, kubelet evicts them and they are placed again", () => {
    // 32 GiB node VMs, 5 pods each by requests (1 GiB); each uses 7000 MiB: 1 GiB + 5 x 7000 MiB > 32 GiB
    const world = buildWorld(
      smallScenario({
        oversell: { cpuRatio: 1, memoryRatio: 1 },
        workloads: [
          {
            name: "hog",
            replicas: 40,
            cpuRequestMilli: 100,
            cpuLimitMilli: 500,
            memoryRequestMiB: 1024,
            memoryLimitMiB: 8192,
            cpu: { mean: 100 },
            memory: { meanMiB: 7000 },
          },
        ],
      }),
    );
    const r = simulateStrategy({ world, strategy: "default", seed: 1, policy });
    expect(r.figures.evictions).to.be.greaterThan(0);
    expect(r.figures.bindings).to.be.greaterThan(r.figures.placedPods);
    expect(r.figures.longestCascade).to.be.greaterThan(0);
  });

  it("given jobs with a lifetime, they finish and free their node", () => {
    const world = buildWorld(smallScenario());
    const r = simulateStrategy({ world, strategy: "default", seed: 1, policy });
    expect(r.figures.runningPodsAtEnd).to.be.lessThan(r.figures.placedPods);
  });

  it("given host 0 saturated by noisy VMs, hvx puts fewer pod-seconds on contended hosts than default", () => {
    const world = buildWorld(smallScenario());
    const hvx = simulateStrategy({ world, strategy: "hvx", seed: 2, policy });
    const dflt = simulateStrategy({ world, strategy: "default", seed: 2, policy });
    expect(hvx.figures.contendedPodSeconds).to.be.lessThan(dflt.figures.contendedPodSeconds);
  });

  it("counts a pod as contended by its own node VM's ready, not by its host's (which includes the neighbours' waits)", () => {
    // host 0's noisy VMs wait a lot; its lightly loaded node VMs are served first and wait less
    const world = buildWorld(smallScenario());
    const r = simulateStrategy({ world, strategy: "default", seed: 1, policy });
    expect(r.figures.severeContendedPodSeconds).to.be.at.most(r.figures.contendedPodSeconds);
    expect(r.figures.contendedPodSeconds).to.be.greaterThan(0);
    expect(r.figures.hostContendedPodSeconds).to.be.greaterThan(r.figures.contendedPodSeconds);
  });

  it("given pods that fit nowhere, they stay pending and are counted", () => {
    const world = buildWorld(
      smallScenario({
        workloads: [
          {
            name: "huge",
            replicas: 3,
            cpuRequestMilli: 64_000,
            cpuLimitMilli: 64_000,
            memoryRequestMiB: 10,
            memoryLimitMiB: 10,
            cpu: { mean: 1 },
            memory: { meanMiB: 1 },
          },
        ],
      }),
    );
    const r = simulateStrategy({ world, strategy: "hvx", seed: 1, policy });
    expect(r.figures.pendingPods).to.equal(3);
    expect(r.figures.placedPods).to.equal(0);
  });
});
