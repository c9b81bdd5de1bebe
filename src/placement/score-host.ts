import type { HostMetrics, VmMetrics } from "../model/inventory.js";
import type { HostAssessment } from "./assess-host.js";
import type { ThresholdPolicy } from "./policy.js";

/** Extender scores are 0..10 (kube-scheduler's MaxExtenderPriority). */
export const MAX_HOST_SCORE = 10;

/**
 * Headroom weights: queueing signals (ready, then reclaim) matter more than utilisation.
 * They sum to 1, so headroom is 0..1.
 */
const WEIGHTS = { ready: 0.4, cpu: 0.3, memory: 0.2, reclaim: 0.1 } as const;

/**
 * Scores a host 0..10 from its assessment and metrics, in three tiers so that heat
 * always dominates headroom:
 *   hot  -> 0
 *   warm -> 1 + floor(3 x headroom), capped at 4
 *   cool -> 5 + round(5 x headroom)             (5..10)
 * headroom = 0.4 x free(ready) + 0.3 x free(cpu usage) + 0.2 x free(memory usage)
 *          + 0.1 x min(free(balloon %), free(swap-in)), with free(v) = clamp(1 - v / threshold, 0, 1)
 * and ready = max(host ready, the node VM's ready). Every term falls as its metric rises,
 * so a host that is cooler on every metric never scores below a hotter one.
 */
export function scoreHost(assessment: HostAssessment, host: HostMetrics, vm: VmMetrics | undefined, t: ThresholdPolicy): number {
  if (assessment.heat === "hot") return 0;
  const h = hostHeadroom(host, vm, t);
  if (assessment.heat === "warm") return Math.min(4, 1 + Math.floor(3 * h));
  return 5 + Math.round(5 * h);
}

/** Lowest score of each heat tier: Kubernetes-layer penalties never push a host below its tier. */
const TIER_FLOOR = { hot: 0, warm: 1, cool: 5 } as const;

/**
 * Takes Kubernetes-layer penalty points (replica spread, stacked-overcommit proximity) off a
 * host score, but never below the floor of the host's heat tier: heat dominates, so a cool
 * host crowded with replicas still ranks above any warm one.
 */
export function penalise(score: number, heat: HostAssessment["heat"], penalty: number): number {
  return Math.max(Math.min(score, TIER_FLOOR[heat]), score - penalty);
}

/** Weighted free share of the host, 0..1 (1 = idle on every signal). */
export function hostHeadroom(host: HostMetrics, vm: VmMetrics | undefined, t: ThresholdPolicy): number {
  const ready = Math.max(host.cpuReadyPercent ?? 0, vm?.cpuReadyPercent ?? 0);
  const reclaim = Math.min(free(host.balloonPercent, t.balloonPercent), free(host.swapInKBps, t.swapInKBps));
  return (
    WEIGHTS.ready * free(ready, t.cpuReadyPercent) +
    WEIGHTS.cpu * free(host.cpuUsagePercent, t.hostCpuUsagePercent) +
    WEIGHTS.memory * free(host.memUsagePercent, t.hostMemoryUsagePercent) +
    WEIGHTS.reclaim * reclaim
  );
}

function free(value: number | undefined, threshold: number): number {
  if (value === undefined) return 1;
  if (threshold <= 0) return value > 0 ? 0 : 1;
  return Math.min(1, Math.max(0, 1 - value / threshold));
}
