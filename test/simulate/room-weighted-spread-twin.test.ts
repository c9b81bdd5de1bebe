import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { productionPolicy } from "../../src/simulate/run-simulation.js";
import type { RunState } from "../../src/simulate/run-state.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { smallScenario } from "./fixtures.js";

// Four 16-core hosts with two 8-vCPU node VMs each; hosts 0 and 1 also carry two 8-vCPU database
// VMs at 50 % (half of the host left: weight 0.5). 24 api replicas (limit 1 CPU each, 12 on a
// host would still be under the cap's soft share of its room) burst together. With plain counts
// the spread holds them within one of 6 per host; weighed by room it expects about 4 on each busy
// host and 8 on each quiet one.
const world = buildWorld(
  smallScenario({
    durationHours: 1,
    noisyVms: [{ hosts: [0, 1], perHost: 2, vcpus: 8, memoryGiB: 16, cpu: { mean: 50, noiseCv: 0.05 } }],
    workloads: [
      {
        name: "api",
        replicas: 24,
        cpuRequestMilli: 250,
        cpuLimitMilli: 500,
        memoryRequestMiB: 512,
        memoryLimitMiB: 1024,
        cpu: { mean: 150, noiseCv: 0.1, burst: { perHour: 2, minutes: 5, peak: 450, correlated: true } },
        memory: { meanMiB: 400, noiseCv: 0.05 },
        arrival: { startMinute: 2, spreadMinutes: 20 },
      },
    ],
  }),
);

/** api replicas per host at the end of a run of hvx with the room-weighted spread on or off. */
function replicasPerHost(spreadByRoom: boolean): number[] {
  const base = productionPolicy();
  const policy = { ...base, correlation: { ...base.correlation!, spreadByRoom } };
  let state: RunState | undefined;
  simulateStrategy({ world, strategy: "hvx", seed: 1, policy, wrap: (s, deps) => ((state = deps.state), s) });
  const perHost = new Array<number>(world.hosts.count).fill(0);
  for (let p = 0; p < world.pods.count; p++) {
    const node = state!.podNode[p]!;
    if (node >= 0) perHost[state!.vmHost[node]!]! += 1;
  }
  return perHost;
}

describe("hvx in the twin: the replica spread weighed by burst room", () => {
  it("given a bursting group and two hosts with half their CPU taken by other VMs, keeps fewer replicas there", () => {
    const off = replicasPerHost(false);
    const on = replicasPerHost(true);
    const onBusyHosts = (perHost: number[]) => perHost[0]! + perHost[1]!;
    expect(on.reduce((a, b) => a + b)).to.equal(24);
    expect(onBusyHosts(on), `by room ${on.join(" ")}, by count ${off.join(" ")}`).to.be.below(onBusyHosts(off));
    expect(Math.min(on[2]!, on[3]!)).to.be.above(Math.max(on[0]!, on[1]!));
  });
});
