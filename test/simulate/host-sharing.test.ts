import { expect } from "chai";
import { CpuShareScratch, expectedQueueCores, normalCdf, shareHostCpu, type HostCpuInputs } from "../../src/simulate/host-sharing.js";
import { readyPercentPerVcpu } from "../../src/model/derive-metrics.js";

const MHZ = 2500;
const INTERVAL_MS = 20_000;

interface VmSpec {
  vcpus: number;
  demandMhz: number;
  shares?: number;
  reservationMhz?: number;
  limitMhz?: number;
}

function run(cores: number, specs: VmSpec[]) {
  const inputs: HostCpuInputs = {
    capacityMhz: cores * MHZ,
    mhzPerCore: MHZ,
    cores,
    numaNodes: 1,
    vms: specs.map((_, i) => i),
    vcpus: Int32Array.from(specs, (s) => s.vcpus),
    demandMhz: Float64Array.from(specs, (s) => s.demandMhz),
    shares: Float64Array.from(specs, (s) => s.shares ?? 1000 * s.vcpus),
    reservationMhz: Float64Array.from(specs, (s) => s.reservationMhz ?? 0),
    limitMhz: Float64Array.from(specs, (s) => s.limitMhz ?? Infinity),
  };
  const delivered = new Float64Array(specs.length);
  const readyMs = new Float64Array(specs.length);
  const total = shareHostCpu(inputs, INTERVAL_MS, new CpuShareScratch(), delivered, readyMs);
  const readyPct = specs.map((s, i) => readyPercentPerVcpu(readyMs[i]!, INTERVAL_MS / 1000, s.vcpus));
  return { delivered: [...delivered], readyMs: [...readyMs], readyPct, total };
}

describe("shareHostCpu: allocation by entitlement (max-min fair by shares)", () => {
  it("given fewer vCPUs than cores and demand below capacity, every VM gets its demand and no ready time", () => {
    const r = run(16, [
      { vcpus: 4, demandMhz: 8000 },
      { vcpus: 8, demandMhz: 15_000 },
    ]);
    expect(r.delivered).to.deep.equal([8000, 15_000]);
    expect(r.readyMs).to.deep.equal([0, 0]);
  });

  it("given an over-demanded host, a lightly loaded VM is served in full and the busy ones split the rest by shares", () => {
    // 8 cores = 20 000 MHz. Equal shares per vCPU (4 vCPUs each, 4000 shares): fair share 20 000 / 3 = 6667 each.
    // VM 0 wants 2000 < 6667: gets 2000. The other two split 18 000 equally: 9000 each, of 10 000 wanted.
    const r = run(8, [
      { vcpus: 4, demandMhz: 2000 },
      { vcpus: 4, demandMhz: 10_000 },
      { vcpus: 4, demandMhz: 10_000 },
    ]);
    expect(r.delivered[0]).to.be.closeTo(2000, 1e-6);
    expect(r.delivered[1]).to.be.closeTo(9000, 1e-6);
    expect(r.delivered[2]).to.be.closeTo(9000, 1e-6);
    expect(r.total).to.be.closeTo(20_000, 1e-6);
    // the light VM waits only its share of the queueing; the busy ones 1000 MHz = 0.4 cores of deficit each
    expect(r.readyPct[0]).to.be.below(r.readyPct[1]!);
    expect(r.readyMs[1]).to.be.at.least((1000 / MHZ) * INTERVAL_MS - 1e-6);
  });

  it("given High shares (2000 per vCPU) against Normal, the High VM gets twice the Normal one's share when both want more", () => {
    // 4 cores = 10 000 MHz; both want 10 000; shares 8000 vs 4000: 6667 vs 3333
    const r = run(4, [
      { vcpus: 4, demandMhz: 10_000, shares: 8000 },
      { vcpus: 4, demandMhz: 10_000, shares: 4000 },
    ]);
    expect(r.delivered[0]).to.be.closeTo(20_000 / 3, 1e-6);
    expect(r.delivered[1]).to.be.closeTo(10_000 / 3, 1e-6);
  });

  it("given a reservation, the VM gets at least its reservation even with few shares", () => {
    // 4 cores = 10 000 MHz; VM 0 has 1 share but reserves 6000
    const r = run(4, [
      { vcpus: 4, demandMhz: 10_000, shares: 1, reservationMhz: 6000 },
      { vcpus: 4, demandMhz: 10_000 },
    ]);
    expect(r.delivered[0]).to.be.closeTo(6000, 1e-3);
    expect(r.delivered[1]).to.be.closeTo(4000, 1e-3);
  });

  it("given a limit, the VM is held at its limit and waits (ready) for the rest even on an idle host", () => {
    // 1 vCPU wanting 2500 MHz, limited to 1500: 1000 MHz = 0.4 of a vCPU waits -> 40 %
    const r = run(16, [{ vcpus: 1, demandMhz: 2500, limitMhz: 1500 }]);
    expect(r.delivered[0]).to.equal(1500);
    expect(r.readyPct[0]).to.be.closeTo(40, 1e-9);
  });
});

describe("shareHostCpu: run-queue waits before saturation", () => {
  it("given more vCPUs than cores, ready time starts below 100 % host utilisation and grows with it", () => {
    // 32 cores, 72 vCPUs (3 x 16 + 3 x 8), everyone at the same per-vCPU utilisation
    const at = (util: number) =>
      run(32, [
        ...[0, 1, 2].map(() => ({ vcpus: 16, demandMhz: 16 * MHZ * util })),
        ...[0, 1, 2].map(() => ({ vcpus: 8, demandMhz: 8 * MHZ * util })),
      ]).readyPct[0]!;
    const u60 = at((0.6 * 32) / 72);
    const u90 = at((0.9 * 32) / 72);
    const u100 = at(32 / 72);
    expect(u60).to.be.below(0.05);
    expect(u90).to.be.greaterThan(u60);
    expect(u100).to.be.greaterThan(u90);
    expect(u90).to.be.greaterThan(0.5);
  });

  it("given no more vCPUs than cores, there is no queueing: a vCPU always finds a free core", () => {
    const r = run(16, [{ vcpus: 16, demandMhz: 16 * MHZ * 0.99 }]);
    expect(r.readyMs[0]).to.equal(0);
  });
});

describe("expectedQueueCores", () => {
  // 72 vCPUs on 32 cores, homogeneous: mean = 32 rho, variance = 72 p (1 - p) with p = mean / 72
  const queue = (rho: number) => {
    const mean = 32 * rho;
    const p = mean / 72;
    return expectedQueueCores(72, 32, mean, 72 * p * (1 - p));
  };
  const cases = [
    // the curve documented in docs/simulation.md section 4 (ratio = queue / mean)
    { rho: 0.5, max: 1e-4 },
    { rho: 0.8, min: 0.05, max: 0.15 },
    { rho: 1.0, min: 1.5, max: 1.9 },
  ];
  for (const c of cases) {
    it(`at ${c.rho * 100} % utilisation of 32 cores by 72 vCPUs: ${c.min ?? 0}..${c.max} cores wait`, () => {
      const q = queue(c.rho);
      expect(q).to.be.at.most(c.max);
      expect(q).to.be.at.least(c.min ?? 0);
    });
  }
  it("never exceeds N - c", () => expect(expectedQueueCores(33, 32, 40, 100)).to.be.at.most(1));
  it("normalCdf matches known values", () => {
    expect(normalCdf(0)).to.be.closeTo(0.5, 1e-7);
    expect(normalCdf(1.96)).to.be.closeTo(0.975, 1e-4);
    expect(normalCdf(-1)).to.be.closeTo(0.158655, 1e-5);
  });
});

describe("readyPercentPerVcpu", () => {
  it("2000 ms on 1 vCPU in 20 s is 10 %", () => expect(readyPercentPerVcpu(2000, 20, 1)).to.be.closeTo(10, 1e-9));
  it("given zero vCPUs, returns 0 instead of dividing by zero", () => expect(readyPercentPerVcpu(100, 20, 0)).to.equal(0));
});
