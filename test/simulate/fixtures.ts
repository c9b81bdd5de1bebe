import { scenarioSchema, type Scenario } from "../../src/simulate/scenario.js";

/** A small valid scenario (2 hours, 4 hosts, 8 node VMs, 2 noisy VMs on host 0), overridable. */
export function smallScenario(overrides: Record<string, unknown> = {}): Scenario {
  return scenarioSchema.parse({
    name: "small",
    durationHours: 2,
    hosts: { count: 4, cores: 16, mhzPerCore: 2500, memoryGiB: 256 },
    nodeVms: { perHost: 2, vcpus: 8, memoryGiB: 32 },
    noisyVms: [{ hosts: [0], perHost: 2, vcpus: 8, memoryGiB: 16, cpu: { mean: 90, noiseCv: 0.05 } }],
    oversell: { cpuRatio: 2 },
    workloads: [
      {
        name: "web",
        replicas: 40,
        cpuRequestMilli: 500,
        cpuLimitMilli: 2000,
        memoryRequestMiB: 512,
        memoryLimitMiB: 1024,
        cpu: { mean: 700, noiseCv: 0.05, burst: { perHour: 2, minutes: 5, peak: 1800, correlated: true } },
        memory: { meanMiB: 400, noiseCv: 0.05 },
        arrival: { startMinute: 2, spreadMinutes: 40 },
      },
      {
        name: "job",
        replicas: 8,
        cpuRequestMilli: 1000,
        cpuLimitMilli: 2000,
        memoryRequestMiB: 1024,
        memoryLimitMiB: 2048,
        cpu: { mean: 1500, noiseCv: 0.1 },
        memory: { meanMiB: 800 },
        arrival: { startMinute: 10, spreadMinutes: 5 },
        lifetimeMinutes: 20,
        repeatEveryMinutes: 30,
      },
    ],
    ...overrides,
  });
}
