import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deploymentCpuLimit } from "../test/manifests/deployment-node-options.js";

/** How often the quota ran out while the process was confined, and for how long its threads waited. */
export interface Throttling {
  readonly periods: number;
  readonly ms: number;
}

/** A process confined to a CFS quota of `cpus` in a cgroup of its own, as the kubelet confines a container with `limits.cpu`. */
export interface CpuLimit {
  readonly cpus: number;
  throttling(): Throttling;
  /** Removes the cgroup; call once the process has exited. */
  release(): void;
}

const PERIOD_US = 100_000;
/**
 * The cgroup's weight: high, so that on the benchmark's shared cores the quota is the only thing
 * that differs from an unconfined run (the kubelet derives it from `requests.cpu`, which this does not model).
 */
const V1_SHARES = 16_384;
const V2_WEIGHT = 1_600;

/**
 * The CPUs `HVX_BENCH_CPU_LIMIT` asks `hvx serve` to be confined to: `manifest` for the
 * Deployment's `limits.cpu`, or a number; undefined when unset (no limit, as before).
 */
export function wantedCpuLimit(env = process.env.HVX_BENCH_CPU_LIMIT): number | undefined {
  if (env === undefined || env === "") return undefined;
  const cpus = env === "manifest" ? deploymentCpuLimit() : Number(env);
  if (!(cpus > 0)) throw new Error(`HVX_BENCH_CPU_LIMIT must be "manifest" or a number of CPUs above 0, not ${JSON.stringify(env)}`);
  return cpus;
}

/**
 * Moves `pid` (every thread of it: V8's garbage-collection helpers share the quota with the event
 * loop) into a new cgroup with a CFS quota of `cpus` per 100 ms period. Needs root and the cgroup
 * v2 `cpu` controller at /sys/fs/cgroup or the v1 one at /sys/fs/cgroup/cpu; says which is missing otherwise.
 */
export function confineToCpus(pid: number, cpus: number, name = `hvx-bench-${pid}`): CpuLimit {
  const quotaUs = Math.round(cpus * PERIOD_US);
  const v2 = "/sys/fs/cgroup";
  const v1 = "/sys/fs/cgroup/cpu";
  if (readOr(join(v2, "cgroup.subtree_control")).split(/\s+/).includes("cpu")) {
    const dir = join(v2, name);
    mkdirSync(dir);
    writeFileSync(join(dir, "cpu.max"), `${quotaUs} ${PERIOD_US}`);
    writeFileSync(join(dir, "cpu.weight"), String(V2_WEIGHT));
    writeFileSync(join(dir, "cgroup.procs"), String(pid));
    return limit(cpus, dir, "throttled_usec", 1000);
  }
  if (existsSync(join(v1, "cpu.cfs_quota_us"))) {
    const dir = join(v1, name);
    mkdirSync(dir);
    writeFileSync(join(dir, "cpu.cfs_period_us"), String(PERIOD_US));
    writeFileSync(join(dir, "cpu.cfs_quota_us"), String(quotaUs));
    writeFileSync(join(dir, "cpu.shares"), String(V1_SHARES));
    writeFileSync(join(dir, "cgroup.procs"), String(pid));
    return limit(cpus, dir, "throttled_time", 1_000_000);
  }
  throw new Error(
    "HVX_BENCH_CPU_LIMIT: no cgroup cpu controller here (cgroup v2 with cpu enabled at /sys/fs/cgroup, or v1 at /sys/fs/cgroup/cpu)",
  );
}

function limit(cpus: number, dir: string, throttledField: string, perMs: number): CpuLimit {
  return {
    cpus,
    throttling: () => {
      const stat = new Map(
        readOr(join(dir, "cpu.stat"))
          .split("\n")
          .map((line) => line.split(" ") as [string, string]),
      );
      return { periods: Number(stat.get("nr_throttled") ?? 0), ms: Number(stat.get(throttledField) ?? 0) / perMs };
    },
    release: () => rmdirSync(dir),
  };
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
