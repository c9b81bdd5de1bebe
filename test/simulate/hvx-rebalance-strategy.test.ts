import { expect } from "chai";
import { parseConfig } from "../../src/config/index.js";
import { buildWorld } from "../../src/simulate/build-world.js";
import { loadScenario } from "../../src/simulate/load-scenario.js";
import { simRebalancePolicyOf, type SimRebalancePolicy } from "../../src/simulate/hvx-rebalance-strategy.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { smallScenario } from "./fixtures.js";

const policy = parseConfig(undefined);
const PRODUCTION = simRebalancePolicyOf(policy);
/**
 * Looser than production, so that the small 2-hour scenario's bursting host 0 qualifies; its few
 * pods would give the budget per 100 pod-hours nothing to spend, so that is lifted too.
 */
const EAGER: SimRebalancePolicy = { ...PRODUCTION, hotForMinutes: 2, hotHostBrakePercent: 100, maxEvictionsPer100PodHours: 100 };

describe("hvx+rebalance strategy", function () {
  this.timeout(60_000);
  // Host 0's three noisy VMs idle, then burst to 100 % for an hour: pods placed there while it was cool end up on a hot host.
  const bursting = {
    noisyVms: [{ hosts: [0], perHost: 3, vcpus: 8, memoryGiB: 16, cpu: { mean: 5, burst: { perHour: 4, minutes: 60, peak: 100 } } }],
  };
  const world = buildWorld(smallScenario(bursting));
  const run = (strategy: "hvx" | "hvx+rebalance", rebalance: SimRebalancePolicy = EAGER, w = world) =>
    simulateStrategy({ world: w, strategy, seed: 5, policy, rebalance });

  it("takes production's rebalance keys and the admission brake from the config", () => {
    expect(PRODUCTION).to.deep.equal({
      enabled: false,
      dryRun: true,
      intervalSeconds: 60,
      leaseDurationSeconds: 15,
      hotForMinutes: 10,
      maxEvictionsPerCycle: 2,
      maxEvictionsPerHour: 20,
      maxEvictionsPer100PodHours: 2,
      evictLocalStorage: false,
      hotHostBrakePercent: 25,
      hysteresisPercent: 10,
      restartSeconds: 30,
      minSpellSeconds: 60,
      vmReadyPercent: 5,
    });
  });

  it("given a chronically hot host and room elsewhere, evicts, and every evicted pod is placed again", () => {
    const hvx = run("hvx");
    const r = run("hvx+rebalance");
    expect(r.figures.hvxEvictions).to.be.greaterThan(0);
    expect(hvx.figures.hvxEvictions).to.equal(0);
    // every eviction is one more binding once the pod is back (nothing left pending here)
    expect(r.figures.placedPods + r.figures.pendingPods).to.be.at.most(world.pods.count);
    expect(r.figures.bindings - hvx.figures.bindings).to.be.at.least(r.figures.hvxEvictions - r.figures.pendingPods);
  });

  it("never evicts more than maxEvictionsPerHour in any hour, nor more than maxEvictionsPerCycle per cycle", () => {
    const r = run("hvx+rebalance", { ...EAGER, maxEvictionsPerHour: 3 });
    expect(r.figures.hvxEvictions).to.be.at.most(3 * world.scenario.durationHours);
    const perCycle = run("hvx+rebalance", { ...EAGER, maxEvictionsPerCycle: 1, maxEvictionsPerHour: 1000 });
    expect(perCycle.figures.hvxEvictions).to.be.at.most(Math.ceil(world.steps / 3));
  });

  it("given the brake at 0 % (any hot host holds everything), evicts nothing and equals hvx", () => {
    const r = run("hvx+rebalance", { ...EAGER, hotHostBrakePercent: 0 });
    expect(r.figures.hvxEvictions).to.equal(0);
    expect({ ...r.figures }).to.deep.equal({ ...run("hvx").figures });
  });

  it("given a bind latency and no eviction, places exactly as hvx does (bindings reach its view at the same time)", () => {
    const base = smallScenario(bursting);
    // A burst at 5 pods per second: bindings land inside a step, each at its own time.
    const workloads = base.workloads.map((w) => ({ ...w, arrival: { startMinute: 2, ratePerSecond: 5 } }));
    const latent = buildWorld(smallScenario({ ...bursting, workloads, bindLatencySeconds: 5 }));
    const r = run("hvx+rebalance", { ...EAGER, hotHostBrakePercent: 0 }, latent);
    expect(r.figures.hvxEvictions).to.equal(0);
    expect({ ...r.figures }).to.deep.equal({ ...run("hvx", EAGER, latent).figures });
  });

  it("given restartSeconds 0, the evicted pod is back in the queue on the next step; a long restart leaves pods pending longer", () => {
    const quick = run("hvx+rebalance", EAGER, buildWorld(smallScenario({ ...bursting, restartSeconds: 0 })));
    const slow = run("hvx+rebalance", EAGER, buildWorld(smallScenario({ ...bursting, restartSeconds: 3600 })));
    expect(quick.figures.hvxEvictions).to.be.greaterThan(0);
    expect(slow.figures.hvxEvictions).to.be.greaterThan(0);
    // a pod evicted within the last hour of a 2-hour run is still waiting at the end with a 1-hour restart
    expect(slow.figures.runningPodsAtEnd).to.be.below(quick.figures.runningPodsAtEnd);
  });

  it("given online-batch under the queueing physics (seed 1, 6 hours) and production's keys, evicts at most 2 per 100 pod-hours", () => {
    // Before the budget per 100 pod-hours: 106 evictions in 1304 pod-hours (8.1); the hourly cap of 20 alone allows them.
    const path = new URL("../../../examples/scenarios/online-batch.yaml", import.meta.url).pathname;
    const onlineBatch = buildWorld({ ...loadScenario(path), durationHours: 6 });
    const r = simulateStrategy({ world: onlineBatch, strategy: "hvx+rebalance", seed: 1, policy, physics: "queueing" }).figures;
    expect(r.hvxEvictions, "the rebalancer acts here").to.be.greaterThan(0);
    expect((r.hvxEvictions / r.podHours) * 100).to.be.at.most(2);
  });

  it("is deterministic in (world, seed)", () => {
    expect(run("hvx+rebalance").figures).to.deep.equal(run("hvx+rebalance").figures);
  });
});
