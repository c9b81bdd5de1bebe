import { expect } from "chai";
import { buildWorld, type World } from "../../src/simulate/build-world.js";
import { hvxStrategy } from "../../src/simulate/hvx-strategy.js";
import { ObservationRing } from "../../src/simulate/observation-ring.js";
import { mulberry32 } from "../../src/simulate/prng.js";
import { productionPolicy } from "../../src/simulate/run-simulation.js";
import { RunState } from "../../src/simulate/run-state.js";
import { smallScenario } from "./fixtures.js";

/** Writes a sample for `step` in which host `hotHost`'s VMs wait `readyMs` per vCPU-sample. */
function observe(world: World, ring: ObservationRing, state: RunState, step: number, hotHosts: number[], readyMsPerVcpu: number): void {
  const obs = ring.writable(step, world.startMs + (step + 1) * 20_000);
  for (let v = 0; v < world.vms.count; v++) {
    const h = state.vmHost[v]!;
    obs.vmHost[v] = h;
    obs.vmReadyMs[v] = hotHosts.includes(h) ? readyMsPerVcpu * world.vms.vcpus[v]! : 0;
    obs.vmBalloonKB[v] = 0;
    obs.vmSwappedKB[v] = 0;
  }
  for (let h = 0; h < world.hosts.count; h++) {
    obs.hostCpuUsageFixed[h] = 3000;
    obs.hostMemUsageFixed[h] = 4000;
    obs.hostMemState[h] = 0;
  }
}

function setup() {
  const world = buildWorld(smallScenario());
  const state = new RunState(world);
  const ring = new ObservationRing(world, world.lagSteps);
  const strategy = hvxStrategy({ world, state, ring, rng: mulberry32(1) }, productionPolicy());
  return { world, state, ring, strategy };
}

const ALL_NODES = [0, 1, 2, 3, 4, 5, 6, 7];

describe("hvxStrategy (real filterNodes / prioritizeNodes)", () => {
  it("given host 0 hot on CPU ready (3000 ms per vCPU = 15 %), never places a pod on its node VMs", () => {
    const { world, state, ring, strategy } = setup();
    observe(world, ring, state, 0, [0], 3000);
    for (let p = 0; p < 20; p++) {
      const node = strategy.choose(p, ALL_NODES, 2);
      expect(world.vms.initialHost[node]).to.not.equal(0);
      state.bind(p, node, 2);
    }
  });

  it("given every host hot, leaves the pod pending (-1)", () => {
    const { world, state, ring, strategy } = setup();
    observe(world, ring, state, 0, [0, 1, 2, 3], 3000);
    expect(strategy.choose(0, ALL_NODES, 2)).to.equal(-1);
  });

  it("given a warm host (ready 6 %) and cool ones, prefers the cool hosts", () => {
    const { world, state, ring, strategy } = setup();
    observe(world, ring, state, 0, [1], 1200);
    for (let p = 0; p < 10; p++) expect(world.vms.initialHost[strategy.choose(p, ALL_NODES, 2)]).to.not.equal(1);
  });

  it("given no sample yet (start of the run), has no opinion and still places the pod", () => {
    const { strategy } = setup();
    expect(strategy.choose(0, ALL_NODES, 0)).to.be.within(0, 7);
  });

  it("given no sample visible at that step, has no opinion and passes every node", () => {
    const { world, state, ring, strategy } = setup();
    observe(world, ring, state, 0, [0, 1, 2, 3], 3000);
    // step 2 sees sample 0; step 10 would need sample 8, which was never written
    expect(strategy.choose(0, ALL_NODES, 10)).to.be.within(0, 7);
  });
});
