import { expect } from "chai";
import { acrossSeeds, type SeedFigures } from "../../src/simulate/across-seeds.js";
import type { StrategyFigures } from "../../src/simulate/figures.js";
import { oracleShareText } from "../../src/simulate/render-across-seeds.js";

function figures(contendedHours: number, saturatedHours = 0, onlineContendedHours = 0): StrategyFigures {
  return {
    contendedPodSeconds: contendedHours * 3600,
    onlineContendedPodSeconds: onlineContendedHours * 3600,
    onlinePodHours: 100,
    saturatedPodSeconds: saturatedHours * 3600,
    contendedOrSaturatedPodSeconds: (contendedHours + saturatedHours) * 3600,
    vmotions: 0,
    placedPods: 10,
  } as StrategyFigures;
}

describe("acrossSeeds", () => {
  // seed 1: default 100, hvx 50 (cut 50 %), oracle 10 (cut 90 %); seed 2: default 200, hvx 60 (cut 70 %), oracle 40 (cut 80 %)
  const rows: SeedFigures[] = [
    { physics: "overflow", key: "drs-off", seed: 1, strategies: { default: figures(100), hvx: figures(50, 5), oracle: figures(10) } },
    { physics: "overflow", key: "drs-off", seed: 2, strategies: { default: figures(200), hvx: figures(60, 15), oracle: figures(40) } },
  ];
  const got = acrossSeeds([1, 2], rows).physics.overflow!["drs-off"]!;

  it("given two seeds, returns each figure's mean and range", () => {
    expect(got.hvx!.contendedPodHours).to.deep.equal({ mean: 55, min: 50, max: 60 });
    expect(got.hvx!.saturatedPodHours).to.deep.equal({ mean: 10, min: 5, max: 15 });
    expect(got.hvx!.contendedOrSaturatedPodHours).to.deep.equal({ mean: 65, min: 55, max: 75 });
  });

  it("given per-seed cuts, returns their mean and range, and the share as mean cut over the oracle's mean cut", () => {
    expect(got.hvx!.cutVsDefaultPercent).to.deep.equal({ mean: 60, min: 50, max: 70 });
    expect(got.oracle!.cutVsDefaultPercent).to.deep.equal({ mean: 85, min: 80, max: 90 });
    // 60 / 85 = 70.6 %
    expect(got.hvx!.shareOfOracleCutPercent).to.be.closeTo(70.588, 1e-3);
    expect(got.oracle!.shareOfOracleCutPercent).to.equal(100);
  });

  it("given a default without contention at every seed, returns no cut and no share", () => {
    const none = acrossSeeds([1], [{ physics: "queueing", key: "drs-on", seed: 1, strategies: { default: figures(0), hvx: figures(0) } }]);
    expect(none.physics.queueing!["drs-on"]!.hvx!.cutVsDefaultPercent).to.equal(null);
    expect(none.physics.queueing!["drs-on"]!.hvx!.shareOfOracleCutPercent).to.equal(null);
  });
});

describe("acrossSeeds: evictions per 100 pod-hours (issue 26's bound is 2)", () => {
  const evicting = (hvxEvictions: number, podHours: number) => ({ ...figures(10), hvxEvictions, podHours }) as StrategyFigures;
  // seed 1: 3 evictions over 200 pod-hours = 1.5; seed 2: 5 over 100 = 5
  const got = acrossSeeds(
    [1, 2],
    [
      { physics: "overflow", key: "drs-off", seed: 1, strategies: { default: evicting(0, 200), "hvx+rebalance": evicting(3, 200) } },
      { physics: "overflow", key: "drs-off", seed: 2, strategies: { default: evicting(0, 100), "hvx+rebalance": evicting(5, 100) } },
    ],
  ).physics.overflow!["drs-off"]!;

  it("given each seed's evictions and pod-hours, returns the rate per seed's mean and range", () => {
    expect(got["hvx+rebalance"]!.evictionsPer100PodHours).to.deep.equal({ mean: 3.25, min: 1.5, max: 5 });
    expect(got.default!.evictionsPer100PodHours).to.deep.equal({ mean: 0, min: 0, max: 0 });
  });

  it("given a run without pod-hours, counts it as 0, not as a division by zero", () => {
    const none = acrossSeeds([1], [{ physics: "overflow", key: "drs-off", seed: 1, strategies: { default: evicting(0, 0) } }]);
    expect(none.physics.overflow!["drs-off"]!.default!.evictionsPer100PodHours).to.deep.equal({ mean: 0, min: 0, max: 0 });
  });
});

describe("acrossSeeds: the online class", () => {
  // seed 1: default 40 online contended, hvx 10 (cut 75 %); seed 2: default 0 (no cut counted), hvx 5
  const got = acrossSeeds(
    [1, 2],
    [
      { physics: "overflow", key: "drs-off", seed: 1, strategies: { default: figures(100, 0, 40), hvx: figures(50, 0, 10) } },
      { physics: "overflow", key: "drs-off", seed: 2, strategies: { default: figures(100, 0, 0), hvx: figures(50, 0, 5) } },
    ],
  ).physics.overflow!["drs-off"]!;

  it("given the online class's contended pod-seconds, returns their hours and the cut over the seeds where default had some", () => {
    expect(got.hvx!.onlineContendedPodHours).to.deep.equal({ mean: 7.5, min: 5, max: 10 });
    expect(got.hvx!.onlineCutVsDefaultPercent).to.deep.equal({ mean: 75, min: 75, max: 75 });
    expect(got.default!.onlineCutVsDefaultPercent).to.deep.equal({ mean: 0, min: 0, max: 0 });
  });
});

describe("oracleShareText", () => {
  it('given hvx at 67 % and the oracle at 95 %, returns "hvx: 67.0 % cut = 71 % of the oracle\'s 95.0 %"', () =>
    expect(oracleShareText("hvx", 67, 95)).to.equal("hvx: 67.0 % cut = 71 % of the oracle's 95.0 %"));
});

describe("acrossSeeds: vSphere levers", () => {
  // seed 1: hvx 50 with DRS on, 40 with the lever (cut 20 %); seed 2: hvx 80, 88 (up 10 %)
  const rows: SeedFigures[] = [
    {
      physics: "overflow",
      key: "drs-on",
      seed: 1,
      strategies: { default: figures(100), hvx: figures(50) },
      levers: { "node-vm-shares-high": figures(40) },
    },
    {
      physics: "overflow",
      key: "drs-on",
      seed: 2,
      strategies: { default: figures(100), hvx: figures(80) },
      levers: { "node-vm-shares-high": figures(88) },
    },
  ];

  it("given a lever at two seeds, returns its contended pod-hours and its cut against hvx as run, per seed", () => {
    const got = acrossSeeds([1, 2], rows).drsLevers!.overflow!["node-vm-shares-high"]!;
    expect(got.contendedPodHours).to.deep.equal({ mean: 64, min: 40, max: 88 });
    expect(got.cutVsAsRunPercent!.mean).to.be.closeTo(5, 1e-9);
    expect(got.cutVsAsRunPercent!.min).to.be.closeTo(-10, 1e-9);
    expect(got.cutVsAsRunPercent!.max).to.be.closeTo(20, 1e-9);
  });

  it("given no lever runs, returns no drsLevers key", () =>
    expect(
      acrossSeeds(
        [1],
        rows.map(({ levers: _, ...r }) => r),
      ),
    ).to.not.have.property("drsLevers"));
});
