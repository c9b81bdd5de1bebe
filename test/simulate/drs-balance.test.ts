import { expect } from "chai";
import {
  drsPass,
  drsTolerance,
  hostLoadStdDev,
  vmotionCostMhzSeconds,
  type DrsFilters,
  type DrsInput,
} from "../../src/simulate/drs-balance.js";

/** No MinGoodness, no cost-benefit, 8 moves per source host; cores of 2500 MHz, 5-minute passes. */
function filters(hosts: number, opts: Partial<DrsFilters> = {}): DrsFilters {
  return {
    hostMhzPerCore: Array.from({ length: hosts }, () => 2500),
    maxMovesPerHost: 8,
    minGoodness: 0,
    costBenefit: false,
    vmotionMiBPerSecond: 1192,
    intervalSeconds: 300,
    ...opts,
  };
}

/** Hosts of 10 000 MHz and 100 000 MiB usable unless given; VMs as [host, MHz, MiB]. */
function input(
  vms: Array<[number, number, number]>,
  opts: Partial<DrsInput> & { hosts?: number; filter?: Partial<DrsFilters> } = {},
): DrsInput {
  const hosts = opts.hosts ?? 4;
  const { filter, ...rest } = opts;
  return {
    hostCpuMhz: Array.from({ length: hosts }, () => 10_000),
    hostUsableMemMiB: Array.from({ length: hosts }, () => 100_000),
    hostInMaintenance: Array.from({ length: hosts }, () => 0),
    vmHost: vms.map((v) => v[0]),
    vmCpuMhz: vms.map((v) => v[1]),
    vmMemMiB: vms.map((v) => v[2]),
    migrationThreshold: 3,
    filters: filters(hosts, filter),
    ...rest,
  };
}

describe("drsTolerance (KB 1007485: priority = 6 - ceil(imbalance / 0.1 x sqrt(hosts)))", () => {
  const cases = [
    { threshold: 1, hosts: 4, want: Infinity },
    { threshold: 2, hosts: 4, want: 0.15 },
    { threshold: 3, hosts: 4, want: 0.1 },
    { threshold: 3, hosts: 16, want: 0.05 },
    { threshold: 5, hosts: 4, want: 0 },
    { threshold: 3, hosts: 1, want: Infinity },
  ];
  for (const c of cases) {
    it(`threshold ${c.threshold}, ${c.hosts} hosts: ${c.want}`, () => {
      const got = drsTolerance(c.threshold, c.hosts);
      if (c.want === Infinity) expect(got).to.equal(Infinity);
      else expect(got).to.be.closeTo(c.want, 1e-12);
    });
  }

  it("an imbalance just above the tolerance gives a recommendation of priority <= the threshold, just below does not", () => {
    for (const threshold of [2, 3, 4]) {
      for (const hosts of [4, 9]) {
        const tol = drsTolerance(threshold, hosts);
        const priority = (imbalance: number) => 6 - Math.ceil((imbalance / 0.1) * Math.sqrt(hosts));
        expect(priority(tol * 1.01), `above, ${threshold}/${hosts}`).to.be.at.most(threshold);
        expect(priority(tol * 0.99), `below, ${threshold}/${hosts}`).to.be.above(threshold);
      }
    }
  });
});

describe("drsPass", () => {
  it("moves the VM that lowers the host load standard deviation most, from the hot host to the idle one", () => {
    // host 0 at 90 %, hosts 1 and 2 at 40 %, host 3 idle
    const vms: Array<[number, number, number]> = [
      [0, 6000, 1000],
      [0, 3000, 1000],
      [1, 4000, 1000],
      [2, 4000, 1000],
    ];
    const moves = drsPass(input(vms, { filter: { maxMovesPerHost: 1 } }));
    expect(moves[0]).to.deep.equal({ vm: 1, from: 0, to: 3 });
  });

  it("stops as soon as the imbalance is within the threshold's tolerance, before a perfect balance", () => {
    const vms = Array.from({ length: 8 }, (): [number, number, number] => [0, 1000, 1]);
    const moves = drsPass(input(vms));
    const stdAfter = (k: number) => {
      const loads = [0, 0, 0, 0];
      const hosts = vms.map((v) => v[0]);
      for (const m of moves.slice(0, k)) hosts[m.vm] = m.to;
      hosts.forEach((h, v) => (loads[h] = loads[h]! + vms[v]![1] / 10_000));
      return hostLoadStdDev(loads, [0, 0, 0, 0]);
    };
    expect(moves.length).to.be.greaterThan(0).and.below(6); // 6 moves would balance perfectly
    expect(stdAfter(moves.length)).to.be.at.most(drsTolerance(3, 4));
    expect(stdAfter(moves.length - 1)).to.be.above(drsTolerance(3, 4));
  });

  it("stops when no single move lowers the imbalance, even above the tolerance", () => {
    // 0.6 / 0.6 / 0.3 / 0.3 in VMs of 0.3: any move only swaps which hosts are busy
    const vms: Array<[number, number, number]> = [
      [0, 3000, 1],
      [0, 3000, 1],
      [1, 3000, 1],
      [1, 3000, 1],
      [2, 3000, 1],
      [3, 3000, 1],
    ];
    expect(drsPass(input(vms))).to.deep.equal([]);
  });

  it("does nothing within the tolerance, at threshold 1 (mandatory moves only), or with one host", () => {
    expect(
      drsPass(
        input([
          [0, 1000, 1],
          [1, 1000, 1],
          [2, 1200, 1],
          [3, 1000, 1],
        ]),
      ),
    ).to.deep.equal([]);
    expect(drsPass(input([[0, 9000, 1]], { migrationThreshold: 1 }))).to.deep.equal([]);
    expect(
      drsPass(
        input(
          [
            [0, 9000, 1],
            [0, 500, 1],
          ],
          { hosts: 1 },
        ),
      ),
    ).to.deep.equal([]);
  });

  it("never moves onto a host in maintenance, nor onto one without memory for the VM", () => {
    const vms: Array<[number, number, number]> = [
      [0, 5000, 60_000],
      [0, 4000, 60_000],
      [1, 1000, 60_000],
    ];
    const moves = drsPass(input(vms, { hosts: 3, hostInMaintenance: [0, 0, 1] }));
    // host 2 is in maintenance; host 1 has 40 000 MiB left, less than either VM on host 0
    expect(moves).to.deep.equal([]);
    const roomy = drsPass(input(vms, { hosts: 3, hostInMaintenance: [0, 0, 1], hostUsableMemMiB: [100_000, 200_000, 100_000] }));
    expect(roomy.map((m) => m.to)).to.deep.equal([1]);
  });

  it("given 20 VMs on one hot host, moves at most maxMovesPerHost of them per pass", () => {
    const vms = Array.from({ length: 20 }, (): [number, number, number] => [0, 450, 1]);
    expect(drsPass(input(vms, { filter: { maxMovesPerHost: 3 } }))).to.have.length(3);
    expect(drsPass(input(vms, { filter: { maxMovesPerHost: 8 } })).length).to.be.at.most(8);
  });

  it("given two hot hosts and a limit of one move per host, moves one VM off each (the limit is per source host, not per cluster)", () => {
    const vms = [
      ...Array.from({ length: 10 }, (): [number, number, number] => [0, 900, 1]),
      ...Array.from({ length: 10 }, (): [number, number, number] => [1, 900, 1]),
    ];
    const moves = drsPass(input(vms, { filter: { maxMovesPerHost: 1 } }));
    expect(moves.map((m) => m.from).sort()).to.deep.equal([0, 1]);
  });

  // two hosts of 10 000 MHz: loads 0.6 / 0.1, std 0.25 > tolerance 0.2 / sqrt(2) = 0.141. The best move, the
  // 1000 MHz VM, gives 0.5 / 0.2: std 0.15, goodness 0.1; moving the 5000 MHz VM gives 0.1 / 0.6: goodness 0.
  const twoHosts: Array<[number, number, number]> = [
    [0, 5000, 1],
    [0, 1000, 1],
    [1, 1000, 1],
  ];
  const minGoodnessCases = [
    { name: "MinGoodness 0.09", minGoodness: 0.09, want: [{ vm: 1, from: 0, to: 1 }] },
    { name: "MinGoodness 0.11 (above the best move's goodness 0.1)", minGoodness: 0.11, want: [] },
  ];
  for (const c of minGoodnessCases)
    it(`given ${c.name}, returns ${c.want.length} move(s)`, () =>
      expect(drsPass(input(twoHosts, { hosts: 2, filter: { minGoodness: c.minGoodness } }))).to.deep.equal(c.want));

  // The same move: unbalanced MHz = C |load - mean| / 2 summed: (2500 + 2500) before, (1500 + ... ) = 1500 after -> gain
  // 1000 MHz x 300 s = 300 000 MHz s. Cost = (2500 + 2500) MHz x memory / 1192 MiB/s: below the benefit up to 71 520 MiB.
  const costCases = [
    { name: "a 70 000 MiB VM (cost 293 624 MHz s < benefit 300 000)", memMiB: 70_000, want: 1 },
    { name: "a 75 000 MiB VM (cost 314 597 MHz s > benefit 300 000)", memMiB: 75_000, want: 0 },
  ];
  for (const c of costCases)
    it(`given the cost-benefit filter and ${c.name}, returns ${c.want} move(s)`, () => {
      const vms: Array<[number, number, number]> = [
        [0, 5000, 1],
        [0, 1000, c.memMiB],
        [1, 1000, 1],
      ];
      expect(drsPass(input(vms, { hosts: 2, filter: { costBenefit: true } }))).to.have.length(c.want);
    });

  it("given a 1192 MiB VM between two 2500 MHz cores, a vMotion costs 5000 MHz x 1 s", () =>
    expect(vmotionCostMhzSeconds(1192, 2500, 2500, 1192)).to.equal(5000));
});
