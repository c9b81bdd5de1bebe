import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { UsageSeries } from "../../src/simulate/usage-series.js";
import { smallScenario } from "./fixtures.js";

describe("UsageSeries", () => {
  it("given correlated bursts, every replica of the workload bursts in the same steps", () => {
    const world = buildWorld(smallScenario({}));
    const usage = new UsageSeries(world, 11);
    const web = [...world.pods.workload.keys()].filter((p) => world.pods.workload[p] === 0);
    let burstSteps = 0;
    for (let s = 0; s < world.steps; s++) {
      usage.advance(s);
      const high = web.map((p) => usage.podCpuMilli(p) > 1200);
      const count = high.filter(Boolean).length;
      // peak 1800 x (1 - 0.05 x 3) = 1530 > 1200 while bursting; mean 700 x (1 + 0.05 x 3) = 805 < 1200 otherwise
      expect(count === 0 || count === web.length, `step ${s}: ${count} of ${web.length}`).to.equal(true);
      if (count > 0) burstSteps++;
    }
    expect(burstSteps).to.be.greaterThan(0);
  });

  it("given the same seed, returns the same series however often a value is read", () => {
    const world = buildWorld(smallScenario());
    const a = new UsageSeries(world, 3);
    const b = new UsageSeries(world, 3);
    for (let s = 0; s < 50; s++) {
      a.advance(s);
      b.advance(s);
      b.podCpuMilli(5);
      expect(a.podCpuMilli(5)).to.equal(b.podCpuMilli(5));
      expect(a.podMemMiB(9)).to.equal(b.podMemMiB(9));
      expect(a.noisyCpuPercent(1)).to.equal(b.noisyCpuPercent(1));
    }
  });

  it("refuses to skip a step", () => {
    const usage = new UsageSeries(buildWorld(smallScenario()), 1);
    usage.advance(0);
    expect(() => usage.advance(2)).to.throw(/advanced from 0 to 2/);
  });

  it("keeps noisy VM usage within 0..100 %", () => {
    const world = buildWorld(smallScenario());
    const usage = new UsageSeries(world, 1);
    for (let s = 0; s < world.steps; s++) {
      usage.advance(s);
      expect(usage.noisyCpuPercent(0)).to.be.within(0, 100);
    }
  });
});
