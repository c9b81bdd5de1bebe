import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { applyMaintenance } from "../../src/simulate/maintenance.js";
import { RunState } from "../../src/simulate/run-state.js";
import { smallScenario } from "./fixtures.js";

describe("applyMaintenance", () => {
  const world = buildWorld(smallScenario({ maintenance: [{ host: 1, startMinute: 10, durationMinutes: 20 }] }));

  it("at the window's start, marks the host and moves every VM off it to in-service hosts", () => {
    const state = new RunState(world);
    applyMaintenance(world, state, 30); // minute 10 = step 30
    expect(state.hostInMaintenance[1]).to.equal(1);
    expect([...state.vmHost]).to.not.include(1);
    expect(state.placementVersion).to.be.greaterThan(0);
  });

  it("sends each VM to the host with the most unassigned memory (host 0 carries noisy VMs, so hosts 2 and 3 first)", () => {
    const state = new RunState(world);
    applyMaintenance(world, state, 30);
    // host 1 had node VMs 1 and 5 (32 GiB each); hosts 2 and 3 have 64 GiB assigned, host 0 has 96 GiB
    expect([state.vmHost[1], state.vmHost[5]]).to.deep.equal([2, 3]);
  });

  it("at the window's end, returns the host to service without moving VMs back", () => {
    const state = new RunState(world);
    applyMaintenance(world, state, 30);
    applyMaintenance(world, state, 90);
    expect(state.hostInMaintenance[1]).to.equal(0);
    expect([...state.vmHost]).to.not.include(1);
  });
});
