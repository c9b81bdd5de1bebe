import { expect } from "chai";
import { fleetView } from "../../src/oversell/fleet-view.js";
import { host } from "./fixtures.js";

describe("fleetView", () => {
  it("given no hosts, returns zero ratios and 0 % hot", () => {
    expect(fleetView([], () => true)).to.deep.equal({ hostCount: 0, vcpuPerPcpu: 0, vramPerPram: 0, hotHostCount: 0, hotPercent: 0 });
  });
  it("given hosts of different sizes, weighs ratios by cores and memory (sums, not averages)", () => {
    // vCPU = 2*10 + 1*30 = 50 over 40 cores = 1.25; vRAM = 1.5*1000 + 1*3000 = 4500 over 4000 = 1.125
    const v = fleetView(
      [
        host({ id: "a", cpuCores: 10, vcpuPerPcpu: 2, memoryMiB: 1000, vramPerPram: 1.5 }),
        host({ id: "b", cpuCores: 30, vcpuPerPcpu: 1, memoryMiB: 3000, vramPerPram: 1 }),
      ],
      (h) => h.id === "a",
    );
    expect(v).to.deep.equal({ hostCount: 2, vcpuPerPcpu: 1.25, vramPerPram: 1.125, hotHostCount: 1, hotPercent: 50 });
  });
  it("given a host with unknown cores/memory, leaves it out of the ratios but counts it for heat", () => {
    const v = fleetView(
      [host({ id: "a", cpuCores: 0, memoryMiB: 0 }), host({ id: "b", cpuCores: 8, vcpuPerPcpu: 3, memoryMiB: 10, vramPerPram: 2 })],
      () => false,
    );
    expect([v.hostCount, v.vcpuPerPcpu, v.vramPerPram]).to.deep.equal([2, 3, 2]);
  });
});
