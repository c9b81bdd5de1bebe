import type { DrsLeverName } from "./drs-levers.js";
import type { StrategyFigures } from "./figures.js";
import type { PhysicsName } from "./physics.js";
import { ORACLE, type StrategyName } from "./strategy.js";

/** Mean and range of one figure over the seeds. */
export interface SeedStat {
  readonly mean: number;
  readonly min: number;
  readonly max: number;
}

/** One strategy's figures over the seeds (pod-hours; cuts in percent against `default` of the same seed). */
export interface AcrossSeedsFigures {
  readonly contendedPodHours: SeedStat;
  readonly saturatedPodHours: SeedStat;
  readonly contendedOrSaturatedPodHours: SeedStat;
  /** Contended pod-hours of correlated-burst replicas sharing a host with another replica on another node VM. */
  readonly correlatedCoHostedPodHours: SeedStat;
  /** Contended (ready) pod-seconds cut against `default`, per seed; null when `default` had none at every seed. */
  readonly cutVsDefaultPercent: SeedStat | null;
  /** The mean cut as a share of the oracle's mean cut, percent; null without an oracle cut. */
  readonly shareOfOracleCutPercent: number | null;
  readonly vmotions: SeedStat;
  readonly placedPods: SeedStat;
  /** hvx's evictions per 100 pod-hours run, per seed (issue 26's bound is 2); 0 for strategies that never evict. */
  readonly evictionsPer100PodHours: SeedStat;
  /** The online workload class's contended pod-hours, and their cut against `default` (null: none under `default`). */
  readonly onlineContendedPodHours: SeedStat;
  readonly onlineCutVsDefaultPercent: SeedStat | null;
  readonly onlinePodHours: SeedStat;
}

export type RunKeyName = "drs-off" | "drs-on";

/** `hvx` with DRS on under one vSphere lever (drs-levers.ts), over the seeds. */
export interface LeverFigures {
  readonly contendedPodHours: SeedStat;
  /** Contended pod-seconds cut against `hvx` as run with DRS on, per seed; null when hvx had none at every seed. */
  readonly cutVsAsRunPercent: SeedStat | null;
  readonly vmotions: SeedStat;
}

/** summary.json's `acrossSeeds`: physics -> DRS setting -> strategy; and physics -> lever. */
export interface AcrossSeeds {
  readonly seeds: readonly number[];
  readonly physics: Partial<Record<PhysicsName, Partial<Record<RunKeyName, Partial<Record<StrategyName, AcrossSeedsFigures>>>>>>;
  /** Present when levers were tried (runs with DRS on). */
  readonly drsLevers?: Partial<Record<PhysicsName, Partial<Record<DrsLeverName, LeverFigures>>>>;
}

/** One seed's figures per strategy under one physics and DRS setting. */
export interface SeedFigures {
  readonly physics: PhysicsName;
  readonly key: RunKeyName;
  readonly seed: number;
  readonly strategies: Partial<Record<StrategyName, StrategyFigures>>;
  /** `hvx` under each vSphere lever (DRS on only). */
  readonly levers?: Partial<Record<DrsLeverName, StrategyFigures>>;
}

/**
 * The across-seeds table. A cut is computed per seed, `(1 - x / default) x 100`, over the
 * seeds where `default` had contention; the share of the oracle's cut is the ratio of the
 * mean cuts (a ratio per seed explodes when the oracle's cut is small).
 */
export function acrossSeeds(seeds: readonly number[], rows: readonly SeedFigures[]): AcrossSeeds {
  const physics: Record<string, Record<string, Record<string, AcrossSeedsFigures>>> = {};
  const groups = new Map<string, SeedFigures[]>();
  for (const r of rows) {
    const k = `${r.physics}\u0000${r.key}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  for (const group of groups.values()) {
    const { physics: p, key } = group[0]!;
    const names = Object.keys(group[0]!.strategies) as StrategyName[];
    const cuts = new Map(names.map((n) => [n, cutsOf(group, n, (f) => f.contendedPodSeconds)]));
    const oracleCut = meanOf(cuts.get(ORACLE) ?? []);
    const out: Record<string, AcrossSeedsFigures> = {};
    for (const name of names) {
      const figures = group.map((g) => g.strategies[name]!).filter((f) => f !== undefined);
      const c = cuts.get(name)!;
      const onlineCuts = cutsOf(group, name, (f) => f.onlineContendedPodSeconds);
      out[name] = {
        contendedPodHours: statOf(figures.map((f) => f.contendedPodSeconds / 3600)),
        saturatedPodHours: statOf(figures.map((f) => f.saturatedPodSeconds / 3600)),
        contendedOrSaturatedPodHours: statOf(figures.map((f) => f.contendedOrSaturatedPodSeconds / 3600)),
        correlatedCoHostedPodHours: statOf(figures.map((f) => f.correlatedCoHostedPodSeconds / 3600)),
        cutVsDefaultPercent: c.length > 0 ? statOf(c) : null,
        shareOfOracleCutPercent: c.length > 0 && oracleCut !== undefined && oracleCut > 0 ? (meanOf(c)! / oracleCut) * 100 : null,
        vmotions: statOf(figures.map((f) => f.vmotions)),
        placedPods: statOf(figures.map((f) => f.placedPods)),
        evictionsPer100PodHours: statOf(figures.map((f) => (f.podHours > 0 ? (f.hvxEvictions / f.podHours) * 100 : 0))),
        onlineContendedPodHours: statOf(figures.map((f) => f.onlineContendedPodSeconds / 3600)),
        onlineCutVsDefaultPercent: onlineCuts.length > 0 ? statOf(onlineCuts) : null,
        onlinePodHours: statOf(figures.map((f) => f.onlinePodHours)),
      };
    }
    (physics[p] ??= {})[key] = out;
  }
  const drsLevers = leversOf(rows);
  return { seeds, physics, ...(drsLevers ? { drsLevers } : {}) };
}

function leversOf(rows: readonly SeedFigures[]): AcrossSeeds["drsLevers"] {
  const perLever = new Map<string, { physics: PhysicsName; lever: DrsLeverName; figures: StrategyFigures[]; cuts: number[] }>();
  for (const r of rows) {
    for (const [lever, f] of Object.entries(r.levers ?? {}) as Array<[DrsLeverName, StrategyFigures]>) {
      const k = `${r.physics}\u0000${lever}`;
      const entry = perLever.get(k) ?? { physics: r.physics, lever, figures: [], cuts: [] };
      perLever.set(k, entry);
      entry.figures.push(f);
      const asRun = r.strategies.hvx?.contendedPodSeconds ?? 0;
      if (asRun > 0) entry.cuts.push((1 - f.contendedPodSeconds / asRun) * 100);
    }
  }
  if (perLever.size === 0) return undefined;
  const out: Partial<Record<PhysicsName, Partial<Record<DrsLeverName, LeverFigures>>>> = {};
  for (const { physics, lever, figures, cuts } of perLever.values()) {
    (out[physics] ??= {})[lever] = {
      contendedPodHours: statOf(figures.map((f) => f.contendedPodSeconds / 3600)),
      cutVsAsRunPercent: cuts.length > 0 ? statOf(cuts) : null,
      vmotions: statOf(figures.map((f) => f.vmotions)),
    };
  }
  return out;
}

/** `name`'s cut of `figure` against `default`, percent, per seed where `default`'s is above 0. */
function cutsOf(group: readonly SeedFigures[], name: StrategyName, figure: (f: StrategyFigures) => number): number[] {
  const out: number[] = [];
  for (const g of group) {
    const base = g.strategies.default ? figure(g.strategies.default) : 0;
    const own = g.strategies[name];
    if (base > 0 && own !== undefined) out.push((1 - figure(own) / base) * 100);
  }
  return out;
}

function meanOf(xs: readonly number[]): number | undefined {
  return xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
}

function statOf(xs: readonly number[]): SeedStat {
  if (xs.length === 0) return { mean: 0, min: 0, max: 0 };
  return { mean: meanOf(xs)!, min: Math.min(...xs), max: Math.max(...xs) };
}
