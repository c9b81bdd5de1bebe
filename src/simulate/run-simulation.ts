import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadConfig, parseConfig } from "../config/index.js";
import type { PlacementPolicy } from "../placement/index.js";
import { buildWorld, type World } from "./build-world.js";
import { ensureDir } from "./ensure-dir.js";
import type { RunResult, StrategyFigures } from "./figures.js";
import { loadScenario } from "./load-scenario.js";
import { loadTraces } from "./load-traces.js";
import type { DrsSettings, Scenario } from "./scenario.js";
import type { DrsMode, SimulateOptions } from "./parse-simulate-args.js";
import { configChanges } from "./config-changes.js";
import { renderReport, type ReportConfig } from "./render-report.js";
import { renderLineChart, renderPanelChart } from "./svg-chart.js";
import { simulateStrategy } from "./simulate-strategy.js";
import { simRebalancePolicyOf, type SimRebalancePolicy } from "./hvx-rebalance-strategy.js";
import { REPORT_STRATEGY_NAMES, type StrategyName } from "./strategy.js";
import { acrossSeeds, type AcrossSeeds, type SeedFigures } from "./across-seeds.js";
import { PHYSICS_NAMES, type PhysicsName } from "./physics.js";
import { simulateDrsLevers } from "./drs-levers.js";

/** One strategy in summary.json: the whole run's figures, then the same from day 2 on (null for a run of one day or less). */
export type SummaryFigures = StrategyFigures & { readonly fromDay2: StrategyFigures | null };

export type RunKey = "drs-off" | "drs-on";

export interface SimulationSummary {
  readonly scenario: string;
  readonly seed: number;
  readonly steps: number;
  /** `drs-off` and/or `drs-on` (only the one asked for with `--drs off|on`). */
  readonly runs: Partial<Readonly<Record<RunKey, { readonly strategies: Readonly<Partial<Record<StrategyName, SummaryFigures>>> }>>>;
  /** The CPU model of `runs` (the first of `--physics`); absent: `overflow`. */
  readonly physics?: PhysicsName;
  /** Every seed of `--seeds` under every physics of `--physics`: mean and range (runSimulation only). */
  readonly acrossSeeds?: AcrossSeeds;
}

/** Every strategy run under one DRS setting. */
export interface StrategyRuns {
  readonly key: RunKey;
  readonly results: readonly RunResult[];
}

/** Production thresholds and defaults: the config schema's defaults. */
export function productionPolicy(): PlacementPolicy {
  return parseConfig(undefined);
}

/** The scenario's DRS settings with `enabled` forced on or off (`--drs`). */
export function drsSettingsFor(s: Scenario, on: boolean): DrsSettings {
  return { ...s.drs, enabled: on };
}

/** Runs every strategy and the oracle on one world and seed (no I/O); DRS as the scenario says unless `drs` is given. */
export function simulateAll(
  world: World,
  seed: number,
  policy: PlacementPolicy = productionPolicy(),
  drs?: DrsSettings,
  rebalance: SimRebalancePolicy = simRebalancePolicyOf(parseConfig(undefined)),
  physics: PhysicsName = "overflow",
): RunResult[] {
  return REPORT_STRATEGY_NAMES.map((strategy) =>
    simulateStrategy({ world, strategy, seed, policy, rebalance, physics, ...(drs ? { drs } : {}) }),
  );
}

/** Every strategy with DRS off, on, or both (off first). */
export function simulateRuns(
  world: World,
  seed: number,
  policy: PlacementPolicy = productionPolicy(),
  mode: DrsMode = "both",
  rebalance?: SimRebalancePolicy,
  physics: PhysicsName = "overflow",
): StrategyRuns[] {
  const keys: RunKey[] = mode === "both" ? ["drs-off", "drs-on"] : mode === "on" ? ["drs-on"] : ["drs-off"];
  return keys.map((key) => ({
    key,
    results: simulateAll(world, seed, policy, drsSettingsFor(world.scenario, key === "drs-on"), rebalance, physics),
  }));
}

/** Told before each seed and physics is run (a full report runs 20 of them: minutes). */
export type SimulationProgress = (step: { done: number; total: number; seed: number; physics: PhysicsName }) => void;

/**
 * Every seed from `firstSeed` (`count` of them) under every physics: the detailed runs of the
 * first physics at `firstSeed` (for the tables and charts) and the across-seeds figures.
 */
export function simulateSeeds(
  world: World,
  firstSeed: number,
  count: number,
  physicsList: readonly PhysicsName[],
  policy: PlacementPolicy = productionPolicy(),
  mode: DrsMode = "both",
  rebalance?: SimRebalancePolicy,
  onProgress?: SimulationProgress,
): { readonly runs: StrategyRuns[]; readonly acrossSeeds: AcrossSeeds } {
  const seeds = Array.from({ length: count }, (_, i) => (firstSeed + i) >>> 0);
  let detailed: StrategyRuns[] | undefined;
  const rows: SeedFigures[] = [];
  const total = physicsList.length * seeds.length;
  let done = 0;
  for (const physics of physicsList) {
    for (const seed of seeds) {
      onProgress?.({ done: done++, total, seed, physics });
      const runs = simulateRuns(world, seed, policy, mode, rebalance, physics);
      if (detailed === undefined) detailed = runs;
      for (const run of runs) {
        const strategies = Object.fromEntries(run.results.map((r) => [r.strategy, r.figures]));
        const levers =
          run.key === "drs-on" ? simulateDrsLevers(world, seed, policy, drsSettingsFor(world.scenario, true), physics) : undefined;
        rows.push({ physics, key: run.key, seed, strategies, ...(levers ? { levers } : {}) });
      }
    }
  }
  return { runs: detailed ?? [], acrossSeeds: acrossSeeds(seeds, rows) };
}

export function summaryOf(world: World, seed: number, runs: readonly StrategyRuns[]): SimulationSummary {
  const out: Partial<Record<RunKey, { strategies: Partial<Record<StrategyName, SummaryFigures>> }>> = {};
  for (const run of runs) {
    const strategies = Object.fromEntries(
      run.results.map((r) => [r.strategy, { ...roundFigures(r.figures), fromDay2: r.fromDay2 ? roundFigures(r.fromDay2) : null }]),
    );
    out[run.key] = { strategies };
  }
  return { scenario: world.scenario.name, seed, steps: world.steps, runs: out };
}

/**
 * `hvx simulate`: loads the scenario, runs each strategy on the same seeded workload and
 * writes DIR/report.md, DIR/summary.json and the SVG charts. Same seed, same bytes.
 */
export async function runSimulation(opts: SimulateOptions, onProgress?: SimulationProgress): Promise<SimulationSummary> {
  const scenario = loadScenario(opts.scenarioPath);
  const world = buildWorld(scenario, loadTraces(scenario, dirname(opts.scenarioPath)));
  ensureDir(opts.outDir);
  const config = opts.configPath !== undefined ? loadConfig(opts.configPath) : parseConfig(undefined);
  const physicsList = opts.physics === undefined ? (["overflow"] as const) : opts.physics === "both" ? PHYSICS_NAMES : [opts.physics];
  const { runs, acrossSeeds } = simulateSeeds(
    world,
    opts.seed,
    opts.seeds ?? 1,
    physicsList,
    config,
    opts.drs ?? "both",
    simRebalancePolicyOf(config),
    onProgress,
  );
  const summary: SimulationSummary = {
    ...summaryOf(world, opts.seed, runs),
    physics: physicsList[0]!,
    acrossSeeds: roundAcrossSeeds(acrossSeeds),
  };
  const reportConfig: ReportConfig = {
    ...(opts.configPath !== undefined ? { path: opts.configPath } : {}),
    thresholds: config.thresholds,
    changes: configChanges(config, parseConfig(undefined)),
  };
  for (const [file, text] of Object.entries(renderFiles(world, opts.seed, runs, summary, opts.scenarioPath, reportConfig)))
    writeFileSync(join(opts.outDir, file), text);
  return summary;
}

/** Every output file's name and text. */
export function renderFiles(
  world: World,
  seed: number,
  runs: readonly StrategyRuns[],
  summary: SimulationSummary,
  scenarioPath = `${world.scenario.name}.yaml`,
  config: ReportConfig = { thresholds: productionPolicy().thresholds, changes: [] },
): Record<string, string> {
  const hours = (i: number) => (i * world.stepSeconds) / 3600;
  // one series per strategy and DRS setting; with both settings the DRS-on series are "<strategy> +DRS"
  const results = runs.flatMap((run) =>
    run.results.map((r) => (runs.length > 1 && run.key === "drs-on" ? { ...r, strategy: `${r.strategy} +DRS` } : r)),
  );
  return {
    "summary.json": `${JSON.stringify(summary, null, 2)}\n`,
    "host-ready.svg": renderLineChart({
      title: "Hottest host: CPU ready % per vCPU (maximum over all hosts at each step)",
      subtitle: "Each point is the highest host ready % of any host in that step (and over the steps it covers), not one particular host.",
      xLabel: "hours",
      yLabel: "ready %",
      series: results.map((r) => ({ name: r.strategy, values: r.series.maxHostReadyPercent })),
      xOf: hours,
      threshold: { value: 5, label: "contended (5 %)" },
    }),
    "cumulative-contention.svg": renderLineChart({
      title: "Cumulative pod-hours on contended node VMs (own CPU ready >= 5 %)",
      xLabel: "hours",
      yLabel: "pod-hours",
      series: results.map((r) => ({ name: r.strategy, values: r.series.cumulativeContendedPodSeconds, scale: 1 / 3600 })),
      xOf: hours,
    }),
    "strategies.svg": renderPanelChart({
      title: "Per strategy (one panel per unit; figures that are 0 for every strategy are left out)",
      panels: [
        {
          unit: "pod-hours",
          groups: [
            { label: "contended (>= 5 %)", values: results.map((r) => r.figures.contendedPodSeconds / 3600) },
            { label: "severe (>= 10 %)", values: results.map((r) => r.figures.severeContendedPodSeconds / 3600) },
          ],
        },
        { unit: "ready %", groups: [{ label: "p99 VM ready", values: results.map((r) => r.figures.p99VmReadyPercent) }] },
        {
          unit: "GiB-hours",
          groups: [
            { label: "balloon", values: results.map((r) => r.figures.balloonGiBSeconds / 3600) },
            { label: "swap", values: results.map((r) => r.figures.swapGiBSeconds / 3600) },
          ],
        },
        { unit: "evictions", groups: [{ label: "evictions", values: results.map((r) => r.figures.evictions) }] },
        {
          unit: "pods",
          groups: [
            { label: "placed", values: results.map((r) => r.figures.placedPods) },
            { label: "pending", values: results.map((r) => r.figures.pendingPods) },
          ],
        },
      ],
      seriesNames: results.map((r) => r.strategy),
    }),
    "report.md": renderReport(world, seed, runs, summary, scenarioPath, config),
  };
}

function roundFigures(f: StrategyFigures): StrategyFigures {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(f)) out[k] = Math.round(v * 1000) / 1000;
  return out as unknown as StrategyFigures;
}

/** summary.json's across-seeds block, every number to 3 decimals. */
function roundAcrossSeeds(a: AcrossSeeds): AcrossSeeds {
  return JSON.parse(JSON.stringify(a, (_k, v: unknown) => (typeof v === "number" ? Math.round(v * 1000) / 1000 : v))) as AcrossSeeds;
}
