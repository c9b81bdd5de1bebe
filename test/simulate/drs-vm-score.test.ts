import { expect } from "chai";
import type { DrsFilters } from "../../src/simulate/drs-balance.js";
import { drsVmScorePass, type DrsVmScoreInput } from "../../src/simulate/drs-vm-score.js";

/** Three hosts of 10 000 MHz, cores of 2500 MHz, 100 000 MiB usable; VMs as [host, MHz, MiB, ready %], 4 vCPUs each. */
function input(vms: Array<[number, number, number, number]>, opts: Partial<DrsVmScoreInput> & { filter?: Partial<DrsFilters> } = {}) {
  const { filter, ...rest } = opts;
  const H = 3;
  const filters: DrsFilters = {
    hostMhzPerCore: [2500, 2500, 2500],
    maxMovesPerHost: 8,
    minGoodness: 0,
    costBenefit: false,
    vmotionMiBPerSecond: 1192,
    intervalSeconds: 60,
    ...filter,
  };
  return {
    hostCpuMhz: Array.from({ length: H }, () => 10_000),
    hostUsableMemMiB: Array.from({ length: H }, () => 100_000),
    hostInMaintenance: Array.from({ length: H }, () => 0),
    vmHost: vms.map((v) => v[0]),
    vmCpuMhz: vms.map((v) => v[1]),
    vmMemMiB: vms.map((v) => v[2]),
    vmVcpus: vms.map(() => 4),
    vmReadyPercent: vms.map((v) => v[3]),
    vmReadyThresholdPercent: 5,
    migrationThreshold: 3,
    filters,
    ...rest,
  };
}

describe("drsVmScorePass (vSphere 7-style: acts on a VM's own ready)", () => {
  // host 0 at 90 % (two VMs, one waiting 8 %), host 1 at 50 %, host 2 at 20 %
  const base: Array<[number, number, number, number]> = [
    [0, 6000, 1000, 8],
    [0, 3000, 1000, 2],
    [1, 5000, 1000, 1],
    [2, 2000, 1000, 0],
  ];

  it("given one VM at 8 % ready, moves it (and only it) to the least-loaded host", () =>
    expect(drsVmScorePass(input(base))).to.deep.equal([{ vm: 0, from: 0, to: 2 }]));

  it("given every VM below the ready threshold, moves nothing however unbalanced the hosts", () =>
    expect(drsVmScorePass(input(base.map(([h, mhz, mib]) => [h, mhz, mib, 4] as [number, number, number, number])))).to.deep.equal([]));

  it("given migration threshold 1 (mandatory moves only), moves nothing", () =>
    expect(drsVmScorePass(input(base, { migrationThreshold: 1 }))).to.deep.equal([]));

  it("given no host that would be less loaded than the VM's own, keeps it", () => {
    const even: Array<[number, number, number, number]> = [
      [0, 3000, 1000, 9],
      [1, 3000, 1000, 0],
      [2, 3000, 1000, 0],
    ];
    // after the move the target would carry 6000 MHz (0.6), above the source's 0.3
    expect(drsVmScorePass(input(even))).to.deep.equal([]);
  });

  // benefit = 8 % x 4 vCPUs x 2500 MHz x 60 s = 48 000 MHz s; cost = 5000 MHz x memory / 1192 MiB/s
  const costCases = [
    { name: "a 10 000 MiB VM (cost 41 946 MHz s < 48 000)", memMiB: 10_000, want: 1 },
    { name: "a 12 000 MiB VM (cost 50 336 MHz s > 48 000)", memMiB: 12_000, want: 0 },
  ];
  for (const c of costCases)
    it(`given the cost-benefit filter and ${c.name}, returns ${c.want} move(s)`, () => {
      const vms = base.map((v, i) => (i === 0 ? ([v[0], v[1], c.memMiB, v[3]] as [number, number, number, number]) : v));
      expect(drsVmScorePass(input(vms, { filter: { costBenefit: true } }))).to.have.length(c.want);
    });

  it("given two unhappy VMs on one host and one move per source host, moves the one with more ready", () => {
    const two: Array<[number, number, number, number]> = [
      [0, 4000, 1000, 6],
      [0, 4000, 1000, 9],
      [1, 1000, 1000, 0],
      [2, 1000, 1000, 0],
    ];
    expect(drsVmScorePass(input(two, { filter: { maxMovesPerHost: 1 } }))).to.deep.equal([{ vm: 1, from: 0, to: 1 }]);
  });
});
