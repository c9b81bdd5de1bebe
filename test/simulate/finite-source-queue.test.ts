import { expect } from "chai";
import { finiteSourceQueue } from "../../src/simulate/finite-source-queue.js";
import { engsetByFormula, offeredForUtilisation } from "./engset-formula.js";

describe("finiteSourceQueue (M/M/c//N)", () => {
  const edges = [
    { name: "no load", N: 48, c: 32, p: 0, want: { busy: 0, waiting: 0 } },
    { name: "no more vCPUs than cores: no queue, busy = N p", N: 16, c: 32, p: 0.5, want: { busy: 8, waiting: 0 } },
    { name: "every vCPU always runnable: c busy, N - c waiting", N: 48, c: 32, p: 1, want: { busy: 32, waiting: 16 } },
    { name: "no sources", N: 0, c: 32, p: 0.7, want: { busy: 0, waiting: 0 } },
  ];
  for (const e of edges)
    it(`given ${e.name}, returns busy ${e.want.busy} and waiting ${e.want.waiting}`, () =>
      expect(finiteSourceQueue(e.N, e.c, e.p)).to.deep.equal(e.want));

  // The points: a host at 95 % CPU usage. One pool of 32 cores with 48 vCPUs: 2.6 % ready per vCPU;
  // two NUMA nodes of 16 cores with 24 vCPUs each: 5.1 %.
  const points = [
    { name: "48 vCPUs on 32 cores at 95 % usage", N: 48, c: 32, usage: 0.95, readyPercent: 2.6 },
    { name: "24 vCPUs on a 16-core NUMA node at 95 % usage", N: 24, c: 16, usage: 0.95, readyPercent: 5.1 },
    { name: "72 vCPUs on 32 cores at 80 % usage", N: 72, c: 32, usage: 0.8, readyPercent: 0.2 },
  ];
  for (const pt of points)
    it(`given ${pt.name}, returns the closed form's queue (about ${pt.readyPercent} % ready per vCPU)`, () => {
      const a = offeredForUtilisation(pt.N, pt.c, pt.usage);
      const want = engsetByFormula(pt.N, pt.c, a);
      const got = finiteSourceQueue(pt.N, pt.c, a / (1 + a));
      expect(got.busy / pt.c).to.be.closeTo(pt.usage, 1e-9);
      expect(got.waiting / pt.N).to.be.closeTo(want.waitingPerSource, 1e-9);
      expect((got.waiting / pt.N) * 100).to.be.closeTo(pt.readyPercent, 0.05);
    });

  it("given 400 vCPUs on 64 cores nearly saturated, stays finite (no overflow)", () => {
    const q = finiteSourceQueue(400, 64, 0.99);
    expect(q.busy).to.be.closeTo(64, 1e-6);
    expect(q.waiting).to.be.within(300, 336);
  });
});
