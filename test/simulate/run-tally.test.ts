import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { RunState } from "../../src/simulate/run-state.js";
import { RunTally } from "../../src/simulate/run-tally.js";
import { StepPhysics } from "../../src/simulate/step-physics.js";
import { smallScenario } from "./fixtures.js";

describe("RunTally: contended pod-seconds rebalancing removed", () => {
  const world = buildWorld(smallScenario());
  /** Counts one step with node VM n's own ready at `ready[n]` (0 elsewhere). */
  function step(tally: RunTally, state: RunState, ready: Record<number, number>): void {
    const physics = new StepPhysics(world);
    physics.vmReadyPercent.fill(0);
    for (const [n, r] of Object.entries(ready)) physics.vmReadyPercent[Number(n)] = r;
    tally.countStep(state, physics);
  }
  function evictedOffNode0() {
    const state = new RunState(world);
    const tally = new RunTally(world, 0, 15);
    state.bind(0, 0, 0);
    state.unbind(0);
    state.enqueue(0, 2);
    tally.recordHvxEviction(0, 0);
    return { state, tally };
  }

  it("given a pod evicted off a node VM that stays contended 3 steps, then calms, returns 3 x 20 s; later contention there is not its", () => {
    const { state, tally } = evictedOffNode0();
    for (const r of [8, 6, 5, 4, 9]) step(tally, state, { 0: r });
    expect(tally.figures(state).rebalanceRemovedPodSeconds).to.equal(60);
    expect(tally.figures(state).hvxEvictions).to.equal(1);
  });

  it("given the pod back on a node VM that is contended too, counts nothing while it is", () => {
    const { state, tally } = evictedOffNode0();
    step(tally, state, { 0: 8 }); // restarting: 20 s removed
    state.bind(0, 1, 1);
    step(tally, state, { 0: 8, 1: 7 }); // contended where it is now: 0
    step(tally, state, { 0: 8, 1: 1 }); // calm where it is now: 20 s
    expect(tally.figures(state).rebalanceRemovedPodSeconds).to.equal(40);
  });

  it("given a pod evicted off a calm node VM, returns 0", () => {
    const { state, tally } = evictedOffNode0();
    step(tally, state, { 0: 2 });
    step(tally, state, { 0: 9 });
    expect(tally.figures(state).rebalanceRemovedPodSeconds).to.equal(0);
  });
});

describe("RunTally: the online class's own contended pod-seconds", () => {
  const world = buildWorld(smallScenario());
  it("given online pods 0 and 1 on a contended node VM and pod 2 (none) beside them, counts 2 x 20 s online of 3 x 20 s", () => {
    const classes = ["online", "online", undefined] as const;
    const state = new RunState(world);
    const tally = new RunTally(world, 0, 15, classes);
    for (const p of [0, 1, 2]) state.bind(p, 0, 0);
    const physics = new StepPhysics(world);
    physics.vmReadyPercent.fill(0);
    physics.vmReadyPercent[0] = 6;
    tally.countStep(state, physics);
    physics.vmReadyPercent[0] = 4; // calm: online pod-seconds run, none contended
    tally.countStep(state, physics);
    const f = tally.figures(state);
    expect(f.contendedPodSeconds).to.equal(60);
    expect(f.onlineContendedPodSeconds).to.equal(40);
    expect(f.onlinePodHours).to.equal(80 / 3600);
  });
});
