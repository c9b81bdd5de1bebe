import { expect } from "chai";
import { memStateIndex, MEM_STATES, minFreeMiB, reclaimHostMemory, type ReclaimParams } from "../../src/simulate/memory-reclaim.js";

const params: ReclaimParams = { balloonMaxShare: 0.65, balloonRateMiB: 1024, swapTouchShare: 0 };

function host(demand: number[], cfg: number[], res: number[] = demand.map(() => 0)) {
  return {
    vms: demand.map((_, i) => i),
    demand: Float64Array.from(demand),
    cfg: Float64Array.from(cfg),
    res: Float64Array.from(res),
    balloon: new Float64Array(demand.length),
    swapped: new Float64Array(demand.length),
  };
}

describe("minFreeMiB", () => {
  const cases = [
    { name: "28 GiB host: 899 MiB", mem: 28 * 1024, want: 899 },
    // 899 + 1 % of (512 - 28) GiB = 899 + 4956.16
    { name: "512 GiB host: 899 + 1 % of the rest", mem: 512 * 1024, want: 899 + 0.01 * 484 * 1024 },
    { name: "14 GiB host: half of 899", mem: 14 * 1024, want: 449.5 },
  ];
  for (const c of cases) it(c.name, () => expect(minFreeMiB(c.mem)).to.be.closeTo(c.want, 1e-9));
});

describe("memStateIndex", () => {
  const cases = [
    { free: 5000, minFree: 1000, want: "high" },
    { free: 1000, minFree: 1000, want: "clear" },
    { free: 999, minFree: 1000, want: "soft" },
    { free: 640, minFree: 1000, want: "soft" },
    { free: 639, minFree: 1000, want: "hard" },
    { free: 320, minFree: 1000, want: "hard" },
    { free: 319, minFree: 1000, want: "low" },
    { free: 100, minFree: 1000, want: "low" },
  ];
  for (const c of cases)
    it(`free ${c.free} of minFree ${c.minFree} is ${c.want}`, () => expect(MEM_STATES[memStateIndex(c.free, c.minFree)]).to.equal(c.want));
});

describe("reclaimHostMemory", () => {
  const M = 28 * 1024; // minFree 899
  it("given demand that fits, reclaims nothing", () => {
    const h = host([10_000, 10_000], [16_384, 16_384]);
    const r = reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect([...h.balloon, ...h.swapped]).to.deep.equal([0, 0, 0, 0]);
    expect(MEM_STATES[r.state]).to.equal("high");
  });
  it("given a small shortfall, balloons first, split by room, and swaps nothing", () => {
    // held 28000, free 672 < 899: need 227, balloon room 1024 each -> 113.5 each
    const h = host([14_000, 14_000], [16_384, 16_384]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(h.balloon[0]).to.be.closeTo(113.5, 1e-9);
    expect(h.balloon[1]).to.be.closeTo(113.5, 1e-9);
    expect([...h.swapped]).to.deep.equal([0, 0]);
  });
  it("given free memory in the hard band, the balloon stops and the host swaps back up to soft", () => {
    // held 32000, free -3328 (hard/low): no balloon; swap to 0.64 x 899 = 575.36 -> 3903.36 swapped
    const h = host([16_000, 16_000], [16_384, 16_384]);
    const r = reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect([...h.balloon]).to.deep.equal([0, 0]);
    expect(h.swapped[0]! + h.swapped[1]!).to.be.closeTo(575.36 + 3328, 1e-6);
    expect(MEM_STATES[r.state]).to.equal("soft");
  });
  it("given the host back in soft after swapping, the balloon takes over on the next step", () => {
    const h = host([16_000, 16_000], [16_384, 16_384]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    // free 575.36 < 899: balloon 323.64 toward minFree
    expect(h.balloon[0]! + h.balloon[1]!).to.be.closeTo(899 - 575.36, 1e-6);
  });
  it("caps the balloon at 65 % of configured memory (Mem.CtlMaxPercent), never into reserved memory", () => {
    // VM 0: 200 MiB configured, 100 reserved, touching all; VM 1 fully reserved. held 28000, free 672 (soft):
    // need 227; VM 0's room = min(65 % x 200 = 130, 200 - 100 reserved) = 100 (not 65 % of 200 - 100 = 65)
    const h = host([200, 27_800], [200, 27_800], [100, 27_800]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(h.balloon[0]).to.be.closeTo(100, 1e-9);
    expect(h.balloon[1]).to.equal(0);
  });
  it("given a VM that touches little, the 65 % cap applies to configured memory", () => {
    // VM 0: 1000 configured, all touched, none reserved: room 650 of the 227 needed -> takes 227; VM 1 reserved
    const h = host([1000, 27_000], [1000, 27_000], [0, 27_000]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(h.balloon[0]).to.be.closeTo(227, 1e-9);
  });
  it("never balloons or swaps reserved memory", () => {
    const h = host([16_000, 16_000], [16_384, 16_384], [16_000, 0]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(h.balloon[0]).to.equal(0);
    expect(h.swapped[0]).to.equal(0);
    expect(h.swapped[1]).to.be.greaterThan(0);
  });
  it("given pressure gone, swaps in first (counted as swap-in) and then deflates", () => {
    const h = host([16_000, 16_000], [16_384, 16_384]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    h.demand.set([8_000, 8_000]);
    const r = reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(r.swapInMiB).to.be.closeTo(3903.36, 1e-6);
    expect([...h.swapped]).to.deep.equal([0, 0]);
    expect(h.balloon[0]! + h.balloon[1]!).to.be.closeTo(0, 1e-9);
  });
});
