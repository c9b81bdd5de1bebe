import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { productionPolicy } from "../../src/simulate/run-simulation.js";
import type { RunState } from "../../src/simulate/run-state.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { smallScenario } from "./fixtures.js";

// Four 16-core hosts with two 8-vCPU node VMs each; hosts 0 and 1 also carry two 8-vCPU
// database VMs at 50 % (8 cores of non-Kubernetes load). 24 api replicas (limit 2 CPUs each)
// burst together. Even spread: 6 per host, 12 CPUs of limits: 12 / (16 - 8) = 1.5 of the room
// on hosts 0 and 1 (the cap's 6 points), 12 / 16 = 0.75 on hosts 2 and 3 (no points).
const world = buildWorld(
  smallScenario({
    durationHours: 1,
    noisyVms: [{ hosts: [0, 1], perHost: 2, vcpus: 8, memoryGiB: 16, cpu: { mean: 50, noiseCv: 0.05 } }],
    workloads: [
      {
        name: "api",
        replicas: 24,
        cpuRequestMilli: 500,
        cpuLimitMilli: 2000,
        memoryRequestMiB: 512,
        memoryLimitMiB: 1024,
        cpu: { mean: 300, noiseCv: 0.1, burst: { perHour: 2, minutes: 5, peak: 1800, correlated: true } },
        memory: { meanMiB: 400, noiseCv: 0.05 },
        arrival: { startMinute: 2, spreadMinutes: 20 },
      },
    ],
  }),
);

/** api replicas per host at the end of a run of hvx with the cap on or off. */
function replicasPerHost(capOn: boolean): number[] {
  const base = productionPolicy();
  const policy = { ...base, correlation: { ...base.correlation!, enabled: capOn } };
  let state: RunState | undefined;
  simulateStrategy({ world, strategy: "hvx", seed: 1, policy, wrap: (s, deps) => ((state = deps.state), s) });
  const perHost = new Array<number>(world.hosts.count).fill(0);
  for (let p = 0; p < world.pods.count; p++) {
    const node = state!.podNode[p]!;
    if (node >= 0) perHost[state!.vmHost[node]!]! += 1;
  }
  return perHost;
}

describe("hvx in the twin: the correlated-burst cap", () => {
  it("given a group that bursts together and two hosts with non-Kubernetes load, moves replicas off those hosts", () => {
    const off = replicasPerHost(false);
    const on = replicasPerHost(true);
    const onBusyHosts = (perHost: number[]) => perHost[0]! + perHost[1]!;
    expect(on.reduce((a, b) => a + b)).to.equal(24);
    expect(onBusyHosts(on), `cap on ${on.join(" ")}, off ${off.join(" ")}`).to.be.below(onBusyHosts(off));
    // each quiet host carries more than each busy one
    expect(Math.min(on[2]!, on[3]!)).to.be.above(Math.max(on[0]!, on[1]!));
  });
});
