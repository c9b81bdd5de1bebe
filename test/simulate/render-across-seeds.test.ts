import { expect } from "chai";
import type { AcrossSeeds, AcrossSeedsFigures } from "../../src/simulate/across-seeds.js";
import { renderAcrossSeeds } from "../../src/simulate/render-across-seeds.js";

const one = (v: number) => ({ mean: v, min: v, max: v });
function figures(onlinePodHours: { mean: number; min: number; max: number }, onlineContended: number): AcrossSeedsFigures {
  return {
    contendedPodHours: one(10),
    saturatedPodHours: one(0),
    contendedOrSaturatedPodHours: one(10),
    cutVsDefaultPercent: one(0),
    shareOfOracleCutPercent: null,
    vmotions: one(0),
    placedPods: one(100),
    evictionsPer100PodHours: one(0),
    correlatedCoHostedPodHours: one(0),
    onlineContendedPodHours: one(onlineContended),
    onlineCutVsDefaultPercent: one(onlineContended === 40 ? 0 : 75),
    onlinePodHours,
  };
}
const seeds = (strategies: Record<string, AcrossSeedsFigures>): AcrossSeeds => ({
  seeds: [1, 2],
  physics: { overflow: { "drs-off": strategies } },
});

describe("renderAcrossSeeds: the online class", () => {
  it("given online pods, adds their table; a range that is one value at the shown digits (float dust) shows the value alone", () => {
    const lines = renderAcrossSeeds(
      seeds({ default: figures(one(3814), 40), hvx: figures({ mean: 3814, min: 3813.9999999, max: 3814.0000001 }, 10) }),
    );
    const table = lines.slice(lines.indexOf("### The online class"));
    expect(table).to.include("| overflow | DRS off | default | 3814 | 40.0 |  | 100 |");
    expect(table).to.include("| overflow | DRS off | hvx | 3814 | 10.0 | 75.0 % | 100 |");
  });

  it("given no online pods under any strategy, adds no online table", () =>
    expect(renderAcrossSeeds(seeds({ default: figures(one(0), 0), hvx: figures(one(0), 0) }))).not.to.include("### The online class"));
});

describe("renderAcrossSeeds: evictions per 100 pod-hours", () => {
  it("given a rebalancing strategy's rate, shows it with two digits in the strategy's row", () => {
    const rebalance = { ...figures(one(0), 0), evictionsPer100PodHours: { mean: 1.53, min: 1.5, max: 1.58 } };
    const lines = renderAcrossSeeds(seeds({ default: figures(one(0), 0), "hvx+rebalance": rebalance }));
    expect(lines.find((l) => l.startsWith("| physics | DRS | strategy |"))).to.match(/\| evictions per 100 pod-hours \|$/);
    expect(lines.find((l) => l.startsWith("| overflow | DRS off | hvx+rebalance |"))).to.match(/\| 1\.53 \[1\.50, 1\.58\] \|$/);
  });
});
