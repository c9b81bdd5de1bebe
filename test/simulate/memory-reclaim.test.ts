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
    { free: 700, minFree: 1000, want: "soft" },
    { free: 200, minFree: 1000, want: "hard" },
    { free: 100, minFree: 1000, want: "low" },
  ];
  for (const c of cases) it(`free ${c.free} of minFree ${c.minFree} is ${c.want}`, () => expect(MEM_STATES[memStateIndex(c.free, c.minFree)]).to.equal(c.want));
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
  it("given a shortfall larger than the balloon can take in one step, swaps the rest down to the hard level", () => {
    // held 32000, free -3328; balloon takes 2 x 1024 -> free -1280; swap to 0.64 x 899 = 575.36 -> 1855.36 swapped
    const h = host([16_000, 16_000], [16_384, 16_384]);
    const r = reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(h.balloon[0]! + h.balloon[1]!).to.be.closeTo(2048, 1e-9);
    expect(h.swapped[0]! + h.swapped[1]!).to.be.closeTo(575.36 + 1280, 1e-6);
    expect(MEM_STATES[r.state]).to.equal("soft");
  });
  it("never balloons or swaps reserved memory", () => {
    const h = host([16_000, 16_000], [16_384, 16_384], [16_000, 0]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(h.balloon[0]).to.equal(0);
    expect(h.swapped[0]).to.equal(0);
    expect(h.balloon[1]).to.be.greaterThan(0);
  });
  it("given pressure gone, swaps in first (counted as swap-in) and then deflates", () => {
    const h = host([16_000, 16_000], [16_384, 16_384]);
    reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    h.demand.set([8_000, 8_000]);
    const r = reclaimHostMemory(M, h.vms, h.demand, h.cfg, h.res, h.balloon, h.swapped, params);
    expect(r.swapInMiB).to.be.closeTo(1855.36, 1e-6);
    expect([...h.swapped]).to.deep.equal([0, 0]);
    expect(h.balloon[0]! + h.balloon[1]!).to.be.closeTo(0, 1e-9);
  });
});
