import { expect } from "chai";
import { cpuShare, readyMsPerSample } from "../../src/simulate/host-sharing.js";
import { readyPercentPerVcpu } from "../../src/vsphere/derive-metrics.js";

describe("cpuShare (proportional share)", () => {
  const cases: Array<{ name: string; capacity: number; demand: number; want: number }> = [
    { name: "demand below capacity gets everything", capacity: 10_000, demand: 8_000, want: 1 },
    { name: "demand equal to capacity gets everything", capacity: 10_000, demand: 10_000, want: 1 },
    // 10000 / 12500 = 0.8
    { name: "demand 25 % over capacity gets 80 %", capacity: 10_000, demand: 12_500, want: 0.8 },
    { name: "no demand gets share 1", capacity: 10_000, demand: 0, want: 1 },
  ];
  for (const c of cases) it(c.name, () => expect(cpuShare(c.capacity, c.demand)).to.be.closeTo(c.want, 1e-12));
});

describe("readyMsPerSample and readyPercentPerVcpu", () => {
  const cases: Array<{ name: string; demandMhz: number; share: number; mhz: number; vcpus: number; wantMs: number; wantPct: number }> = [
    // (1 - 0.8) x (5000 / 2500 = 2 vCPUs busy) x 20000 ms = 8000 ms; 8000 / (20000 x 4) x 100 = 10 %
    { name: "2 busy vCPUs of 4 at share 0.8", demandMhz: 5000, share: 0.8, mhz: 2500, vcpus: 4, wantMs: 8000, wantPct: 10 },
    // (1 - 0.5) x 1 x 20000 = 10000 ms on 1 vCPU = 50 %
    { name: "1 busy vCPU at share 0.5", demandMhz: 2500, share: 0.5, mhz: 2500, vcpus: 1, wantMs: 10000, wantPct: 50 },
    { name: "no contention, no ready", demandMhz: 9000, share: 1, mhz: 2500, vcpus: 8, wantMs: 0, wantPct: 0 },
    // matches vCenter's rule of thumb: 2000 ms in 20 s on one vCPU is 10 %
    { name: "2000 ms on 1 vCPU is 10 %", demandMhz: 2500, share: 0.9, mhz: 2500, vcpus: 1, wantMs: 2000, wantPct: 10 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const ms = readyMsPerSample(c.demandMhz, c.share, c.mhz, 20_000);
      expect(ms).to.be.closeTo(c.wantMs, 1e-6);
      expect(readyPercentPerVcpu(ms, 20, c.vcpus)).to.be.closeTo(c.wantPct, 1e-9);
    });
  }
  it("given zero vCPUs, returns 0 instead of dividing by zero", () => {
    expect(readyPercentPerVcpu(100, 20, 0)).to.equal(0);
  });
});
