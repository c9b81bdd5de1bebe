import { expect } from "chai";
import { drsPass, drsTolerance, hostLoadStdDev, type DrsInput } from "../../src/simulate/drs-balance.js";

/** Hosts of 10 000 MHz and 100 000 MiB usable unless given; VMs as [host, MHz, MiB]. */
function input(vms: Array<[number, number, number]>, opts: Partial<DrsInput> & { hosts?: number } = {}): DrsInput {
  const hosts = opts.hosts ?? 4;
  return {
    hostCpuMhz: Array.from({ length: hosts }, () => 10_000),
    hostUsableMemMiB: Array.from({ length: hosts }, () => 100_000),
    hostInMaintenance: Array.from({ length: hosts }, () => 0),
    vmHost: vms.map((v) => v[0]),
    vmCpuMhz: vms.map((v) => v[1]),
    vmMemMiB: vms.map((v) => v[2]),
    migrationThreshold: 3,
    maxMoves: 8,
    ...opts,
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
    const moves = drsPass(input(vms, { maxMoves: 1 }));
    expect(moves).to.deep.equal([{ vm: 1, from: 0, to: 3 }]);
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

  it("makes at most maxMoves moves per pass", () => {
    const vms = Array.from({ length: 20 }, (): [number, number, number] => [0, 450, 1]);
    expect(drsPass(input(vms, { maxMoves: 3 }))).to.have.length(3);
    expect(drsPass(input(vms, { maxMoves: 8 })).length).to.be.at.most(8);
  });
});
