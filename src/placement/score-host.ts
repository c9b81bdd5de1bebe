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
 * headroom = the weighted mean of the known terms (see `hostHeadroom`); a counter vCenter did
 * not return is unknown: it adds no headroom and takes none away. A host with no known term
 * is judged `metrics_missing` by the assessment and scored `scoring.unknownScore` by the
 * caller, so it never reaches this function (0 headroom is assumed if it does).
 */
export function scoreHost(assessment: HostAssessment, host: HostMetrics, vm: VmMetrics | undefined, t: ThresholdPolicy): number {
  if (assessment.heat === "hot") return 0;
  const h = hostHeadroom(host, vm, t) ?? 0;
  if (assessment.heat === "warm") return Math.min(4, 1 + Math.floor(3 * h));
  return 5 + Math.round(5 * h);
}

/**
 * Lowest score of each tier: Kubernetes-layer penalties never push a host below its tier.
 * `unknown` (no opinion on the host: missing or stale data) sits just above hot: the
 * penalties come from the cluster, which hvx does know, so they still apply.
 */
const TIER_FLOOR = { hot: 0, warm: 1, cool: 5, unknown: 1 } as const;

/**
 * Takes Kubernetes-layer penalty points (replica spread, stacked-overcommit proximity) off a
 * host score, but never below the floor of the host's heat tier: heat dominates, so a cool
 * host crowded with replicas still ranks above any warm one. A score already below the
 * floor (an unknownScore configured under 1) is left as it is.
 */
export function penalise(score: number, tier: HostAssessment["heat"] | "unknown", penalty: number): number {
  return Math.max(Math.min(score, TIER_FLOOR[tier]), score - penalty);
}

/**
 * Weighted free share of the host, 0..1 (1 = idle on every signal), over the terms whose
 * metrics are known:
 *   ready   0.4 x free(max(host ready, node VM ready), cpuReadyPercent)  (either side may be unknown)
 *   cpu     0.3 x free(host cpu usage, hostCpuUsagePercent)
 *   memory  0.2 x free(host memory usage, hostMemoryUsagePercent)
 *   reclaim 0.1 x min(free(balloon %, balloonPercent), free(swap-in, swapInKBps))  (over the known of the two)
 * with free(v) = clamp(1 - v / threshold, 0, 1); headroom = sum(weight x free) / sum(weight)
 * over the known terms. Undefined when no term is known.
 */
export function hostHeadroom(host: HostMetrics, vm: VmMetrics | undefined, t: ThresholdPolicy): number | undefined {
  let weighted = 0;
  let weights = 0;
  let known = 0;
  // Over the terms' table, not `headroomTerms`: every decision scores its host, and explain alone needs the terms as objects.
  for (const term of TERMS) {
    const f = term.free(host, vm, t);
    if (f === undefined) continue;
    weighted += term.weight * f;
    weights += term.weight;
    known += 1;
  }
  if (known === 0) return undefined;
  // All four known: the weights sum to 1, so the sum is the headroom (no division, no float drift).
  return known === 4 ? weighted : weighted / weights;
}

export interface HeadroomTerm {
  readonly name: "ready" | "cpu" | "memory" | "reclaim";
  readonly weight: number;
  /** 0..1 free share; undefined when its metrics are unknown (the term then does not count). */
  readonly free: number | undefined;
}

const TERMS: readonly {
  readonly name: HeadroomTerm["name"];
  readonly weight: number;
  readonly free: (host: HostMetrics, vm: VmMetrics | undefined, t: ThresholdPolicy) => number | undefined;
}[] = [
  { name: "ready", weight: WEIGHTS.ready, free: (h, vm, t) => free(maxKnown(h.cpuReadyPercent, vm?.cpuReadyPercent), t.cpuReadyPercent) },
  { name: "cpu", weight: WEIGHTS.cpu, free: (h, _vm, t) => free(h.cpuUsagePercent, t.hostCpuUsagePercent) },
  { name: "memory", weight: WEIGHTS.memory, free: (h, _vm, t) => free(h.memUsagePercent, t.hostMemoryUsagePercent) },
  {
    name: "reclaim",
    weight: WEIGHTS.reclaim,
    free: (h, _vm, t) => minKnown(free(h.balloonPercent, t.balloonPercent), free(h.swapInKBps, t.swapInKBps)),
  },
];

/** The four terms of `hostHeadroom`, in its order: what `hvx explain` shows. */
export function headroomTerms(host: HostMetrics, vm: VmMetrics | undefined, t: ThresholdPolicy): readonly HeadroomTerm[] {
  return TERMS.map((term) => ({ name: term.name, weight: term.weight, free: term.free(host, vm, t) }));
}

/** Free share of a known value; undefined (unknown) for a value vCenter did not return. */
function free(value: number | undefined, threshold: number): number | undefined {
  if (value === undefined) return undefined;
  if (threshold <= 0) return value > 0 ? 0 : 1;
  return Math.min(1, Math.max(0, 1 - value / threshold));
}

function maxKnown(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

function minKnown(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
