import { expect } from "chai";
import { CpuShareScratch, type HostCpuInputs } from "../../src/simulate/host-sharing.js";
import { shareHostCpuNuma } from "../../src/simulate/numa-queue-sharing.js";
import { engsetByFormula, offeredForUtilisation } from "./engset-formula.js";

const MHZ = 2500;
const INTERVAL_MS = 20_000;

interface VmSpec {
  vcpus: number;
  demandMhz: number;
  shares?: number;
}

function share(cores: number, numaNodes: number, specs: VmSpec[]) {
  const inputs: HostCpuInputs = {
    capacityMhz: cores * MHZ,
    mhzPerCore: MHZ,
    cores,
    numaNodes,
    vms: specs.map((_, i) => i),
    vcpus: Int32Array.from(specs, (s) => s.vcpus),
    demandMhz: Float64Array.from(specs, (s) => s.demandMhz),
    shares: Float64Array.from(specs, (s) => s.shares ?? 1000 * s.vcpus),
    reservationMhz: new Float64Array(specs.length),
    limitMhz: new Float64Array(specs.length).fill(Infinity),
  };
  const delivered = new Float64Array(specs.length);
  const readyMs = new Float64Array(specs.length);
  const total = shareHostCpuNuma(inputs, INTERVAL_MS, new CpuShareScratch(), delivered, readyMs);
  const readyPercent = specs.map((s, i) => (readyMs[i]! / (INTERVAL_MS * s.vcpus)) * 100);
  return { total, delivered, readyPercent };
}

describe("shareHostCpuNuma (the queueing physics)", () => {
  // Six alike 8-vCPU VMs (48 vCPUs) on 32 cores, each offering a / (1 + a) of its vCPUs, with a such that the
  // queue keeps the cores 95 % busy (solved on the closed form in finite-source-queue.test.ts).
  const cases = [
    { name: "one 32-core NUMA node", numaNodes: 1, poolVcpus: 48, poolCores: 32, readyPercent: 2.6 },
    { name: "two 16-core NUMA nodes", numaNodes: 2, poolVcpus: 24, poolCores: 16, readyPercent: 5.1 },
  ];
  for (const c of cases)
    it(`given a host at 95 % CPU usage with ${c.name}, returns the finite-source queue's ready per vCPU (about ${c.readyPercent} %)`, () => {
      const a = offeredForUtilisation(c.poolVcpus, c.poolCores, 0.95);
      const want = engsetByFormula(c.poolVcpus, c.poolCores, a).waitingPerSource * 100;
      const specs = Array.from({ length: 6 }, () => ({ vcpus: 8, demandMhz: (a / (1 + a)) * 8 * MHZ }));
      const got = share(32, c.numaNodes, specs);
      expect(got.total / (32 * MHZ)).to.be.closeTo(0.95, 1e-9);
      for (const r of got.readyPercent) expect(r).to.be.closeTo(want, 1e-6);
      expect(want).to.be.closeTo(c.readyPercent, 0.05);
    });

  it("given vCPUs that fit the cores of each NUMA node, returns no ready and every demand served", () => {
    const got = share(32, 2, [
      { vcpus: 8, demandMhz: 15_000 },
      { vcpus: 8, demandMhz: 10_000 },
      { vcpus: 4, demandMhz: 9_000 },
    ]);
    expect(Array.from(got.delivered)).to.deep.equal([15_000, 10_000, 9_000]);
    expect(got.readyPercent).to.deep.equal([0, 0, 0]);
  });

  it("given a VM wider than a NUMA node, splits it over the nodes (16 vCPUs on 2 x 8 cores: no queue)", () => {
    const got = share(16, 2, [{ vcpus: 16, demandMhz: 0.9 * 16 * MHZ }]);
    expect(got.readyPercent[0]).to.equal(0);
    expect(got.delivered[0]).to.be.closeTo(0.9 * 16 * MHZ, 1e-6);
  });

  it("given three 16-vCPU VMs on two 16-core NUMA nodes, the two sharing a node wait and the one alone does not", () => {
    const got = share(
      32,
      2,
      Array.from({ length: 3 }, () => ({ vcpus: 16, demandMhz: 0.5 * 16 * MHZ })),
    );
    const sorted = [...got.readyPercent].sort((x, y) => x - y);
    expect(sorted[0]).to.equal(0);
    expect(sorted[1]).to.be.above(0);
    expect(sorted[1]).to.be.closeTo(sorted[2]!, 1e-9);
  });

  it("given a host over capacity, serves the VM below its fair share in full and the heaviest bears the shortfall (entitlement)", () => {
    // one node of 8 cores (20 000 MHz), three 4-vCPU VMs at Normal shares wanting 2000, 10 000 and 10 000 MHz
    const got = share(8, 1, [
      { vcpus: 4, demandMhz: 2000 },
      { vcpus: 4, demandMhz: 10_000 },
      { vcpus: 4, demandMhz: 10_000 },
    ]);
    expect(got.delivered[0]).to.be.closeTo(2000, 1e-6);
    expect(got.delivered[1]).to.be.below(10_000);
    expect(got.delivered[1]).to.be.closeTo(got.delivered[2]!, 1e-6);
    expect(got.readyPercent[1]).to.be.above(got.readyPercent[0]!);
  });
});
