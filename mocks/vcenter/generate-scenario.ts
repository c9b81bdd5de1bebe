import { mulberry32 } from "../../src/random/prng.js";
import { validateScenario } from "./parse-scenario.js";
import type { Scenario, ScenarioInput } from "./scenario-schema.js";

const HOSTS_PER_CLUSTER = 32;

/**
 * A deterministic large scenario for benchmarks (e.g. 200 hosts x 20 VMs): the same
 * options give the same scenario. Host ids `host-1000`.., VM ids `vm-10000`.., clusters of
 * 32 hosts; about one host in ten is hot on CPU ready and one in twenty balloons.
 */
export function generateScenario(opts: { hosts: number; vmsPerHost: number; seed?: number }): Scenario {
  if (!Number.isInteger(opts.hosts) || opts.hosts < 0 || !Number.isInteger(opts.vmsPerHost) || opts.vmsPerHost < 0)
    throw new RangeError("generateScenario: hosts and vmsPerHost must be non-negative integers");
  const rnd = mulberry32(opts.seed ?? 42);
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join("");
  const clusterCount = Math.ceil(opts.hosts / HOSTS_PER_CLUSTER);
  const input: ScenarioInput = {
    clusters: Array.from({ length: clusterCount }, (_, c) => ({
      id: `domain-c${100 + c}`,
      name: `bench-${String(c + 1).padStart(2, "0")}`,
    })),
    hosts: [],
    vms: [],
  };
  for (let h = 0; h < opts.hosts; h++) {
    const hostId = `host-${1000 + h}`;
    const dice = rnd();
    const hot = dice < 0.1;
    const balloon = dice >= 0.1 && dice < 0.15;
    input.hosts!.push({
      id: hostId,
      name: `esx-${String(h + 1).padStart(3, "0")}.bench`,
      cluster: `domain-c${100 + Math.floor(h / HOSTS_PER_CLUSTER)}`,
      cpuCores: 32,
      cpuMhz: 2600,
      memoryMiB: 524_288,
      metrics: {
        cpuUsagePercent: round1(hot ? 80 + rnd() * 15 : 25 + rnd() * 40),
        memUsagePercent: round1(balloon ? 92 + rnd() * 5 : 40 + rnd() * 35),
        swapInKBps: 0,
        memState: balloon ? "soft" : "high",
      },
    });
    for (let v = 0; v < opts.vmsPerHost; v++) {
      const n = h * opts.vmsPerHost + v;
      input.vms!.push({
        id: `vm-${10000 + n}`,
        name: `k8s-worker-${String(n + 1).padStart(4, "0")}`,
        biosUuid: `4226${hex(4)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
        vcpus: 4,
        memoryMiB: 16_384,
        host: hostId,
        metrics: { readyPercent: round1(hot ? 10 + rnd() * 8 : rnd() * 4), balloonMiB: balloon ? Math.round(rnd() * 1024) : 0 },
      });
    }
  }
  return validateScenario(input, "generateScenario");
}

const round1 = (x: number) => Math.round(x * 10) / 10;
