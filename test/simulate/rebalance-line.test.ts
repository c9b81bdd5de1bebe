import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import type { RunResult, StrategyFigures } from "../../src/simulate/figures.js";
import { rebalanceLines } from "../../src/simulate/rebalance-line.js";
import type { StrategyRuns } from "../../src/simulate/run-simulation.js";
import { smallScenario } from "./fixtures.js";

const world = buildWorld(smallScenario({ restartSeconds: 30 }));

function result(strategy: string, figures: Partial<StrategyFigures>): RunResult {
  return { strategy, figures: { ...figures } as StrategyFigures, fromDay2: undefined, series: {} as RunResult["series"] };
}

describe("rebalanceLines", () => {
  it("given hvx at 10 pod-hours and hvx+rebalance at 7 with 12 evictions in 600 pod-hours, returns its figures", () => {
    const runs: StrategyRuns[] = [
      {
        key: "drs-off",
        results: [
          result("hvx", { contendedPodSeconds: 36_000 }),
          result("hvx+rebalance", { contendedPodSeconds: 25_200, hvxEvictions: 12, podHours: 600, rebalanceRemovedPodSeconds: 1_800 }),
        ],
      },
    ];
    // 12 / 600 x 100 = 2.00; 1800 s = 0.5 h; 36000 - 25200 = 10800 s = 3.0 h; 12 x 30 s = 0.1 h
    expect(rebalanceLines(world, runs)).to.deep.equal([
      "- **Rebalancing, DRS off**: 12 evictions (2.00 per 100 pod-hours) removed 0.5 contended pod-hours of the evicted pods themselves; in all, 3.0 contended pod-hours fewer than `hvx`; the restarts cost 0.1 pod-hours without running.",
    ]);
  });

  it("given more contention than hvx, says more", () => {
    const runs: StrategyRuns[] = [
      {
        key: "drs-on",
        results: [
          result("hvx", { contendedPodSeconds: 3_600 }),
          result("hvx+rebalance", { contendedPodSeconds: 7_200, hvxEvictions: 1, podHours: 100, rebalanceRemovedPodSeconds: 0 }),
        ],
      },
    ];
    expect(rebalanceLines(world, runs)[0]).to.contain("in all, 1.0 contended pod-hours more than `hvx`");
  });

  it("given a run without hvx+rebalance, returns no line", () => {
    expect(rebalanceLines(world, [{ key: "drs-off", results: [result("hvx", { contendedPodSeconds: 1 })] }])).to.deep.equal([]);
  });
});
