import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, parseConfig } from "../config/index.js";
import type { PlacementPolicy } from "../placement/index.js";
import { buildWorld, type World } from "./build-world.js";
import { ensureDir } from "./ensure-dir.js";
import type { RunResult, StrategyFigures } from "./figures.js";
import { loadScenario } from "./load-scenario.js";
import type { SimulateOptions } from "./parse-simulate-args.js";
import { renderReport } from "./render-report.js";
import { renderBarChart, renderLineChart } from "./svg-chart.js";
import { simulateStrategy } from "./simulate-strategy.js";
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
export function simulateAll(world: World, seed: number, policy: PlacementPolicy = productionPolicy()): RunResult[] {
  return STRATEGY_NAMES.map((strategy) => simulateStrategy({ world, strategy, seed, policy }));
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
  const results = simulateAll(world, opts.seed, opts.configPath !== undefined ? loadConfig(opts.configPath) : productionPolicy());
  const summary = summaryOf(world, opts.seed, results);
  for (const [file, text] of Object.entries(renderFiles(world, opts.seed, results, summary, opts.scenarioPath))) writeFileSync(join(opts.outDir, file), text);
  return summary;
}

/** Every output file's name and text. */
export function renderFiles(world: World, seed: number, results: readonly RunResult[], summary: SimulationSummary, scenarioPath = `${world.scenario.name}.yaml`): Record<string, string> {
  const hours = (i: number) => (i * world.stepSeconds) / 3600;
  return {
    "summary.json": `${JSON.stringify(summary, null, 2)}\n`,
    "host-ready.svg": renderLineChart({
      title: "Hottest host: CPU ready % per vCPU",
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
    "strategies.svg": renderBarChart({
      title: "Per strategy",
      groups: [
        { label: "contended pod-hours", values: results.map((r) => r.figures.contendedPodSeconds / 3600) },
        { label: "severe pod-hours", values: results.map((r) => r.figures.severeContendedPodSeconds / 3600) },
        { label: "p99 VM ready %", values: results.map((r) => r.figures.p99VmReadyPercent) },
        { label: "evictions", values: results.map((r) => r.figures.evictions) },
        { label: "pods placed", values: results.map((r) => r.figures.placedPods) },
      ],
      seriesNames: results.map((r) => r.strategy),
    }),
    "report.md": renderReport(world, seed, results, summary, scenarioPath),
  };
}

function roundFigures(f: StrategyFigures): StrategyFigures {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(f)) out[k] = Math.round(v * 1000) / 1000;
  return out as unknown as StrategyFigures;
}
