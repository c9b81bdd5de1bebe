import { performance } from "node:perf_hooks";
import { buildWorld } from "../src/simulate/build-world.js";
import { productionPolicy } from "../src/simulate/run-simulation.js";
import { scenarioSchema } from "../src/simulate/scenario.js";
import { simulateStrategy } from "../src/simulate/simulate-strategy.js";
import { STRATEGY_NAMES } from "../src/simulate/strategy.js";
import type { BenchFigure } from "./figure.js";

/**
 * Issue 5 speed target: one simulated day of 50 hosts, 200 node VMs and 5000 pods at
 * 20 s steps in <= 60 s on one core, per strategy run. 4500 long-running pods plus a
 * batch workload (500 pods per batch, re-arriving every 2 hours) keep placements going.
 */
export const BENCH_SCENARIO = scenarioSchema.parse({
  name: "bench-50-hosts",
  durationHours: 24,
  hosts: { count: 50, cores: 48, mhzPerCore: 2600, memoryGiB: 768 },
  nodeVms: { perHost: 4, vcpus: 16, memoryGiB: 96 },
  noisyVms: [
    {
      hosts: Array.from({ length: 20 }, (_, i) => i * 2),
      perHost: 2,
      vcpus: 8,
      memoryGiB: 32,
      cpu: { mean: 60, diurnalAmplitude: 0.3, noiseCv: 0.1, burst: { perHour: 0.5, minutes: 20, peak: 95 } },
    },
  ],
  oversell: { cpuRatio: 2 },
  workloads: [
    {
      name: "web",
      replicas: 3000,
      cpuRequestMilli: 400,
      cpuLimitMilli: 1500,
      memoryRequestMiB: 512,
      memoryLimitMiB: 1024,
      cpu: { mean: 250, diurnalAmplitude: 0.5, noiseCv: 0.2 },
      memory: { meanMiB: 400, noiseCv: 0.05 },
      arrival: { spreadMinutes: 60 },
    },
    {
      name: "api",
      replicas: 1500,
      cpuRequestMilli: 500,
      cpuLimitMilli: 2000,
      memoryRequestMiB: 512,
      memoryLimitMiB: 1024,
      cpu: { mean: 200, noiseCv: 0.2, burst: { perHour: 0.5, minutes: 10, peak: 1000, correlated: true } },
      memory: { meanMiB: 400, noiseCv: 0.05 },
      arrival: { spreadMinutes: 60 },
    },
    {
      name: "batch",
      replicas: 500,
      cpuRequestMilli: 1000,
      cpuLimitMilli: 2000,
      memoryRequestMiB: 1024,
      memoryLimitMiB: 2048,
      cpu: { mean: 1000, noiseCv: 0.1 },
      memory: { meanMiB: 800, noiseCv: 0.05 },
      arrival: { startMinute: 60, spreadMinutes: 20 },
      lifetimeMinutes: 60,
      repeatEveryMinutes: 1440,
    },
  ],
});

export async function run(): Promise<BenchFigure[]> {
  const world = buildWorld(BENCH_SCENARIO);
  const policy = productionPolicy();
  const figures: BenchFigure[] = [];
  let total = 0;
  for (const strategy of STRATEGY_NAMES) {
    const t0 = performance.now();
    const result = simulateStrategy({ world, strategy, seed: 1, policy });
    const wallS = (performance.now() - t0) / 1000;
    total += wallS;
    figures.push({ name: `simulate.day.${strategy}.wallS`, value: wallS, unit: "s", target: "<= 60", ok: wallS <= 60 });
    figures.push({ name: `simulate.day.${strategy}.bindings`, value: result.figures.bindings, unit: "bindings" });
  }
  figures.push({ name: "simulate.day.all-strategies.wallS", value: total, unit: "s" });
  figures.push({ name: "simulate.day.pods", value: world.pods.count, unit: "pods" });
  figures.push({ name: "simulate.day.steps", value: world.steps, unit: "steps" });
  return figures;
}
