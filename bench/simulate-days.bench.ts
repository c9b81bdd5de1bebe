import { performance } from "node:perf_hooks";
import { buildWorld } from "../src/simulate/build-world.js";
import { drsSettingsFor, productionPolicy } from "../src/simulate/run-simulation.js";
import { scenarioSchema } from "../src/simulate/scenario.js";
import { simulateStrategy } from "../src/simulate/simulate-strategy.js";
import { STRATEGY_NAMES } from "../src/simulate/strategy.js";
import type { BenchFigure } from "./figure.js";
import { BENCH_SCENARIO } from "./simulate.bench.js";

/**
 * Placement-v2 speed target: three simulated days of the simulate benchmark's cluster (50
 * hosts, 200 node VMs, 5000 pods) in <= 120 s on one core, per strategy run, with DRS on
 * (vMotions rebuild the per-host VM lists, the worst case). CPU time is reported beside the
 * wall clock: on a shared machine the wall clock includes other jobs' time.
 */
export const DAYS_SCENARIO = scenarioSchema.parse({ ...BENCH_SCENARIO, name: "bench-50-hosts-3-days", durationHours: 72 });

export async function run(): Promise<BenchFigure[]> {
  const world = buildWorld(DAYS_SCENARIO);
  const policy = productionPolicy();
  const drs = drsSettingsFor(DAYS_SCENARIO, true);
  const only = process.env.HVX_BENCH_STRATEGY;
  const figures: BenchFigure[] = [];
  for (const strategy of STRATEGY_NAMES) {
    if (only !== undefined && only !== strategy) continue;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = simulateStrategy({ world, strategy, seed: 1, policy, drs });
    const wallS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    figures.push({ name: `simulate.3days.${strategy}.wallS`, value: wallS, unit: "s", target: "<= 120", ok: wallS <= 120 });
    figures.push({ name: `simulate.3days.${strategy}.cpuS`, value: cpuS, unit: "s", target: "<= 120", ok: cpuS <= 120 });
    figures.push({ name: `simulate.3days.${strategy}.bindings`, value: result.figures.bindings, unit: "bindings" });
    figures.push({ name: `simulate.3days.${strategy}.vmotions`, value: result.figures.vmotions, unit: "vMotions" });
  }
  figures.push({ name: "simulate.3days.steps", value: world.steps, unit: "steps" });
  return figures;
}
