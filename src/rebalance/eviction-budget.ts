/** A guard that holds every eviction until the last hour's evictions age out. */
export type BudgetHold =
  /** `maxEvictionsPerHour` reached. */
  | { readonly code: "hour_budget"; readonly evictedLastHour: number; readonly maxPerHour: number }
  /**
   * `maxEvictionsPer100PodHours` reached: `maxPerHour` = floor(per100PodHours x runningPods / 100),
   * below `maxEvictionsPerHour`.
   */
  | {
      readonly code: "pod_hours_budget";
      readonly evictedLastHour: number;
      readonly maxPerHour: number;
      readonly runningPods: number;
      readonly per100PodHours: number;
    };

export interface BudgetPolicy {
  readonly maxEvictionsPerHour: number;
  readonly maxEvictionsPer100PodHours: number;
}

// Absorbs the binary rounding of a product meant to be whole (2.3 x 3000 / 100 = 68.99999999999999).
const EPSILON = 1e-9;

/**
 * Evictions still allowed in the rolling hour (>= 1), or the guard that holds them all. The hour's
 * cap is the lower of `maxEvictionsPerHour` and floor(`maxEvictionsPer100PodHours` x running pods /
 * 100): the pods running now stand in for the pod-hours of the last hour, so a steady cluster never
 * exceeds the rate. Below 100 / `maxEvictionsPer100PodHours` pods (50 at 2) the cap is 0.
 */
export function evictionsLeftThisHour(
  policy: BudgetPolicy,
  evictedLastHour: number,
  runningPods: number,
): { readonly left: number } | { readonly hold: BudgetHold } {
  const { maxEvictionsPerHour, maxEvictionsPer100PodHours: per100PodHours } = policy;
  const byPodHours = Math.floor((per100PodHours * runningPods) / 100 + EPSILON);
  const left = Math.min(maxEvictionsPerHour, byPodHours) - evictedLastHour;
  if (left > 0) return { left };
  return byPodHours < maxEvictionsPerHour
    ? { hold: { code: "pod_hours_budget", evictedLastHour, maxPerHour: byPodHours, runningPods, per100PodHours } }
    : { hold: { code: "hour_budget", evictedLastHour, maxPerHour: maxEvictionsPerHour } };
}
