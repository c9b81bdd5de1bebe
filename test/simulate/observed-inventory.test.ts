import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { ObservationRing } from "../../src/simulate/observation-ring.js";
import { nodeIdentities, observedInventory } from "../../src/simulate/observed-inventory.js";
import { RunState } from "../../src/simulate/run-state.js";
import { mapNodeToVm, vmIndexOf } from "../../src/placement/index.js";
import { smallScenario } from "./fixtures.js";

describe("observedInventory (production derivation on vCenter units)", () => {
  const world = buildWorld(smallScenario());
  const state = new RunState(world);
  const ring = new ObservationRing(world, 1);
  const obs = ring.writable(0, world.startMs + 20_000);
  obs.vmHost.set(state.vmHost);
  obs.vmReadyMs[0] = 2000 * 8; // node VM 0, 8 vCPUs: 2000 ms each = 10 %
  obs.vmBalloonKB[0] = 1024 * 512; // 512 MiB
  obs.hostCpuUsageFixed[0] = 9150; // 91.5 %
  obs.hostMemState[0] = 3; // hard on the five-state scale
  obs.hostBalloonKB[0] = 1024 * 512;
  const inv = observedInventory(world, obs, state.vmHost, state.hostInMaintenance, world.startMs + 40_000);

  it("derives VM ready % per vCPU from cpu.ready.summation ms", () => {
    expect(inv.vms.get(world.vms.ids[0]!)!.metrics!.cpuReadyPercent).to.be.closeTo(10, 1e-9);
  });
  it("decodes fixed-point host CPU usage and the memory state", () => {
    const m = inv.hosts.get(world.hosts.ids[0]!)!.metrics!;
    expect(m.cpuUsagePercent).to.be.closeTo(91.5, 1e-9);
    expect(m.memState).to.equal("hard");
  });
  it("turns balloon KB into MiB and % of host memory", () => {
    const m = inv.hosts.get(world.hosts.ids[0]!)!.metrics!;
    expect(m.balloonMiB).to.equal(512);
    expect(m.balloonPercent).to.be.closeTo((512 / (256 * 1024)) * 100, 1e-9);
  });
  it("host ready % is the vCPU-weighted mean over its VMs (node VMs 0 and 4, noisy VMs 8 and 9: 10 % x 8 / 32)", () => {
    expect(inv.hosts.get(world.hosts.ids[0]!)!.metrics!.cpuReadyPercent).to.be.closeTo(2.5, 1e-9);
  });
  it("every node maps to its VM through providerID with the production mapping", () => {
    const index = vmIndexOf(inv);
    nodeIdentities(world).forEach((node, n) => expect(mapNodeToVm(node, index, ["providerID"])?.id).to.equal(world.vms.ids[n]));
  });
  it("without a sample, hosts and VMs carry no metrics", () => {
    const empty = observedInventory(world, undefined, state.vmHost, state.hostInMaintenance, world.startMs);
    expect(empty.hosts.get(world.hosts.ids[0]!)!.metrics).to.equal(undefined);
    expect(empty.vms.get(world.vms.ids[0]!)!.metrics).to.equal(undefined);
  });
});
