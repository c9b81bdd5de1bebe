import type { World } from "./build-world.js";
import { UsageSeries } from "./usage-series.js";

/**
 * The whole run's CPU usage, known in advance, sampled every `strideSteps` steps: what the
 * clairvoyant `oracle` reads. The usage series depend only on (seed, entity, step), never on
 * placement (usage-series.ts), so a second series with the run's seed replays exactly what the
 * run will draw. Sample t is step t x strideSteps.
 */
export class FutureLoad {
  readonly samples: number;
  /** Pod p's CPU use at sample t, millicores, capped at its limit (CFS): [p x samples + t]. */
  readonly podCpuMilli: Float32Array;
  /** Non-Kubernetes VM i's CPU use at sample t, percent of its vCPUs: [i x samples + t]. */
  readonly noisyCpuPercent: Float32Array;

  constructor(
    world: World,
    seed: number,
    readonly strideSteps: number,
  ) {
    const S = Math.ceil(world.steps / strideSteps);
    this.samples = S;
    const P = world.pods.count;
    const noisy = world.vms.count - world.nodes.count;
    this.podCpuMilli = new Float32Array(P * S);
    this.noisyCpuPercent = new Float32Array(noisy * S);
    const usage = new UsageSeries(world, seed);
    for (let step = 0; step < world.steps; step++) {
      usage.advance(step);
      if (step % strideSteps !== 0) continue;
      const t = step / strideSteps;
      for (let p = 0; p < P; p++) this.podCpuMilli[p * S + t] = Math.min(usage.podCpuMilli(p), world.pods.limCpuMilli[p]!);
      for (let i = 0; i < noisy; i++) this.noisyCpuPercent[i * S + t] = usage.noisyCpuPercent(i);
    }
  }

  /** The first sample at or after `step`. */
  sampleAtOrAfter(step: number): number {
    return Math.min(this.samples, Math.ceil(step / this.strideSteps));
  }
}
