import { buildWorld, type World } from "../../src/simulate/build-world.js";
import { productionPolicy } from "../../src/simulate/run-simulation.js";
import type { RunState } from "../../src/simulate/run-state.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import type { CorrelationPolicy } from "../../src/placement/correlated-burst-cap.js";
import { smallScenario } from "./fixtures.js";

/**
 * Four 16-core hosts with two 8-vCPU node VMs each; hosts 0 and 1 also carry two 8-vCPU database
 * VMs at 50 % (8 cores of non-Kubernetes load, half of the host). 24 `api` replicas with these CPU
 * requests, limits and load (millicores) burst together.
 */
export function busyHostsWorld(api: { requestMilli: number; limitMilli: number; meanMilli: number; peakMilli: number }): World {
  return buildWorld(
    smallScenario({
      durationHours: 1,
      noisyVms: [{ hosts: [0, 1], perHost: 2, vcpus: 8, memoryGiB: 16, cpu: { mean: 50, noiseCv: 0.05 } }],
      workloads: [
        {
          name: "api",
          replicas: 24,
          cpuRequestMilli: api.requestMilli,
          cpuLimitMilli: api.limitMilli,
          memoryRequestMiB: 512,
          memoryLimitMiB: 1024,
          cpu: { mean: api.meanMilli, noiseCv: 0.1, burst: { perHour: 2, minutes: 5, peak: api.peakMilli, correlated: true } },
          memory: { meanMiB: 400, noiseCv: 0.05 },
          arrival: { startMinute: 2, spreadMinutes: 20 },
        },
      ],
    }),
  );
}

/** Replicas per host at the end of an hour of hvx (seed 1), with the correlation policy changed by `correlation`. */
export function replicasPerHost(world: World, correlation: Partial<CorrelationPolicy>): number[] {
  const base = productionPolicy();
  const policy = { ...base, correlation: { ...base.correlation!, ...correlation } };
  let state: RunState | undefined;
  simulateStrategy({ world, strategy: "hvx", seed: 1, policy, wrap: (s, deps) => ((state = deps.state), s) });
  const perHost = new Array<number>(world.hosts.count).fill(0);
  for (let p = 0; p < world.pods.count; p++) {
    const node = state!.podNode[p]!;
    if (node >= 0) perHost[state!.vmHost[node]!]! += 1;
  }
  return perHost;
}

/** Replicas on the two busy hosts (0 and 1). */
export function onBusyHosts(perHost: readonly number[]): number {
  return perHost[0]! + perHost[1]!;
}
