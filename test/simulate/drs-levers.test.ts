import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { applyDrsLever, nodeVmReservationMhz, simulateDrsLevers } from "../../src/simulate/drs-levers.js";
import { drsSettingsFor, productionPolicy } from "../../src/simulate/run-simulation.js";
import { smallScenario } from "./fixtures.js";

describe("DRS levers", () => {
  // smallScenario: 4 hosts of 16 cores x 2500 MHz, 2 node VMs of 8 vCPUs per host, 2 noisy 8-vCPU VMs on host 0
  const world = buildWorld(smallScenario());
  const drs = drsSettingsFor(world.scenario, true);
  const nodes = world.nodes.count;

  it("given node VMs at Normal shares, High gives each node VM 2000 x 8 vCPUs = 16000 shares and leaves the other VMs alone", () => {
    const applied = applyDrsLever(world, drs, "node-vm-shares-high")!;
    expect([...applied.world.vms.cpuShares.slice(0, nodes)]).to.deep.equal(new Array(nodes).fill(16_000));
    expect([...applied.world.vms.cpuShares.slice(nodes)]).to.deep.equal([...world.vms.cpuShares.slice(nodes)]);
    expect(applied.drs).to.equal(drs);
  });

  it("given node VMs already at High shares, returns no lever (nothing to change)", () => {
    const high = buildWorld(smallScenario({ nodeVms: { perHost: 2, vcpus: 8, memoryGiB: 32, cpuAllocation: { shares: "high" } } }));
    expect(applyDrsLever(high, drs, "node-vm-shares-high")).to.equal(undefined);
  });

  it("given no other reservations, reserves min(allocatable (8000 - 100)/1000 x 2500 = 19750, 90 % x 40000 / 2 = 18000) = 18000 MHz", () => {
    expect(nodeVmReservationMhz(world)).to.equal(18_000);
    const applied = applyDrsLever(world, drs, "node-vm-reservation")!;
    expect([...applied.world.vms.cpuReservationMhz.slice(0, nodes)]).to.deep.equal(new Array(nodes).fill(18_000));
    expect([...applied.world.vms.cpuReservationMhz.slice(nodes)]).to.deep.equal([0, 0]);
  });

  it("given the noisy VMs reserve 2 x 6000 MHz on host 0, leaves (36000 - 12000) / 2 = 12000 MHz per node VM", () => {
    const s = smallScenario();
    const reserved = buildWorld({
      ...s,
      noisyVms: s.noisyVms.map((n) => ({ ...n, cpuAllocation: { ...n.cpuAllocation, reservationMhz: 6000 } })),
    });
    expect(nodeVmReservationMhz(reserved)).to.equal(12_000);
  });

  it("given threshold 3, the conservative lever sets 2; given 1, returns no lever", () => {
    expect(applyDrsLever(world, drs, "migration-threshold-lower")!.drs.migrationThreshold).to.equal(2);
    expect(applyDrsLever(world, { ...drs, migrationThreshold: 1 }, "migration-threshold-lower")).to.equal(undefined);
  });

  it("given the vm-score model (alike at levels 2-5), returns no threshold lever at 3 and 2 -> 1 at 2", () => {
    const vmScore = { ...drs, model: "vm-score" as const };
    expect(applyDrsLever(world, vmScore, "migration-threshold-lower")).to.equal(undefined);
    expect(applyDrsLever(world, { ...vmScore, migrationThreshold: 2 }, "migration-threshold-lower")!.drs.migrationThreshold).to.equal(1);
  });

  it("given a run, returns hvx's figures under each of the three levers", () => {
    const got = simulateDrsLevers(world, 3, productionPolicy(), { ...drs, enabled: false }, "overflow");
    expect(Object.keys(got)).to.deep.equal(["node-vm-shares-high", "node-vm-reservation", "migration-threshold-lower"]);
    expect(got["node-vm-shares-high"]!.placedPods).to.be.greaterThan(0);
  });
});
