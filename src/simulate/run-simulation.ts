import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, parseConfig } from "../config/index.js";
import type { PlacementPolicy } from "../placement/index.js";
import { buildWorld, type World } from "./build-world.js";
import { ensureDir } from "./ensure-dir.js";
import type { RunResult, StrategyFigures } from "./figures.js";
import { loadScenario } from "./load-scenario.js";
import type { SimulateOptions } from "./parse-simulate-args.js";
import { configChanges } from "./config-changes.js";
import { renderReport, type ReportConfig } from "./render-report.js";
import { renderLineChart, renderPanelChart } from "./svg-chart.js";
import { simulateStrategy } from "./simulate-strategy.js";
import { simRebalancePolicyOf, type SimRebalancePolicy } from "./hvx-rebalance-strategy.js";
import { STRATEGY_NAMES, type StrategyName } from "./strategy.js";

export interface SimulationSummary {
  readonly scenario: string;
  readonly seed: number;
  readonly steps: number;
  readonly strategies: Readonly<Record<StrategyName, StrategyFigures>>;
}

/** Production thresholds and defaults: the config schema's defaults. */
export function productionPolicy(): PlacementPolicy {
  return parseConfig(undefined);
}

/** Runs every strategy on one world and seed (no I/O). */
export function simulateAll(world: World, seed: number, policy: PlacementPolicy = productionPolicy(), rebalance?: SimRebalancePolicy): RunResult[] {
  return STRATEGY_NAMES.map((strategy) => simulateStrategy({ world, strategy, seed, policy, ...(rebalance ? { rebalance } : {}) }));
}

export function summaryOf(world: World, seed: number, results: readonly RunResult[]): SimulationSummary {
  const strategies = Object.fromEntries(results.map((r) => [r.strategy, roundFigures(r.figures)])) as Record<StrategyName, StrategyFigures>;
  return { scenario: world.scenario.name, seed, steps: world.steps, strategies };
}

/**
 * `hvx simulate`: loads the scenario, runs each strategy on the same seeded workload and
 * writes DIR/report.md, DIR/summary.json and the SVG charts. Same seed, same bytes.
 */
export async function runSimulation(opts: SimulateOptions): Promise<SimulationSummary> {
  const world = buildWorld(loadScenario(opts.scenarioPath));
  ensureDir(opts.outDir);
  const config = opts.configPath !== undefined ? loadConfig(opts.configPath) : parseConfig(undefined);
  const results = simulateAll(world, opts.seed, config, simRebalancePolicyOf(config));
  const summary = summaryOf(world, opts.seed, results);
  const reportConfig: ReportConfig = {
    ...(opts.configPath !== undefined ? { path: opts.configPath } : {}),
    thresholds: config.thresholds,
    changes: configChanges(config, parseConfig(undefined)),
  };
  for (const [file, text] of Object.entries(renderFiles(world, opts.seed, results, summary, opts.scenarioPath, reportConfig))) writeFileSync(join(opts.outDir, file), text);
  return summary;
}

/** Every output file's name and text. */
export function renderFiles(
  world: World,
  seed: number,
  results: readonly RunResult[],
  summary: SimulationSummary,
  scenarioPath = `${world.scenario.name}.yaml`,
  config: ReportConfig = { thresholds: productionPolicy().thresholds, changes: [] },
): Record<string, string> {
  const hours = (i: number) => (i * world.stepSeconds) / 3600;
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
        { unit: "GiB-hours", groups: [
          { label: "balloon", values: results.map((r) => r.figures.balloonGiBSeconds / 3600) },
          { label: "swap", values: results.map((r) => r.figures.swapGiBSeconds / 3600) },
        ] },
        { unit: "evictions", groups: [{ label: "evictions", values: results.map((r) => r.figures.evictions) }] },
        { unit: "pods", groups: [
          { label: "placed", values: results.map((r) => r.figures.placedPods) },
          { label: "pending", values: results.map((r) => r.figures.pendingPods) },
        ] },
      ],
      seriesNames: results.map((r) => r.strategy),
    }),
    "report.md": renderReport(world, seed, results, summary, scenarioPath, config),
  };
}

function roundFigures(f: StrategyFigures): StrategyFigures {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(f)) out[k] = Math.round(v * 1000) / 1000;
  return out as unknown as StrategyFigures;
}
