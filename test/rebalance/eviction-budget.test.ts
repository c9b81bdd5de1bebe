import { expect } from "chai";
import { evictionsLeftThisHour, type BudgetPolicy } from "../../src/rebalance/eviction-budget.js";

const DEFAULTS: BudgetPolicy = { maxEvictionsPerHour: 20, maxEvictionsPer100PodHours: 2 };

const cases: Array<{
  name: string;
  policy?: Partial<BudgetPolicy>;
  evictedLastHour: number;
  runningPods: number;
  want: ReturnType<typeof evictionsLeftThisHour>;
}> = [
  // floor(2 x 300 / 100) = 6 < 20; 6 - 2 = 4
  { name: "given 300 pods and 2 evicted, returns 4 left", evictedLastHour: 2, runningPods: 300, want: { left: 4 } },
  // floor(2 x 300 / 100) = 6, all spent
  {
    name: "given 300 pods and 6 evicted, returns the pod_hours_budget hold",
    evictedLastHour: 6,
    runningPods: 300,
    want: { hold: { code: "pod_hours_budget", evictedLastHour: 6, maxPerHour: 6, runningPods: 300, per100PodHours: 2 } },
  },
  // floor(2 x 50 / 100) = 1: the smallest fleet that may evict at the default
  { name: "given 50 pods and none evicted, returns 1 left", evictedLastHour: 0, runningPods: 50, want: { left: 1 } },
  // floor(2 x 49 / 100) = floor(0.98) = 0
  {
    name: "given 49 pods and none evicted, returns a hold with a budget of 0",
    evictedLastHour: 0,
    runningPods: 49,
    want: { hold: { code: "pod_hours_budget", evictedLastHour: 0, maxPerHour: 0, runningPods: 49, per100PodHours: 2 } },
  },
  {
    name: "given no running pod, returns a hold with a budget of 0",
    evictedLastHour: 0,
    runningPods: 0,
    want: { hold: { code: "pod_hours_budget", evictedLastHour: 0, maxPerHour: 0, runningPods: 0, per100PodHours: 2 } },
  },
  // floor(2 x 5000 / 100) = 100 >= 20: the absolute cap binds, 20 - 5 = 15
  {
    name: "given 5000 pods and 5 evicted, returns 15 left (maxEvictionsPerHour binds)",
    evictedLastHour: 5,
    runningPods: 5000,
    want: { left: 15 },
  },
  // floor(2 x 1000 / 100) = 20 = maxEvictionsPerHour: equal caps report the absolute one
  {
    name: "given 1000 pods and 20 evicted, returns the hour_budget hold",
    evictedLastHour: 20,
    runningPods: 1000,
    want: { hold: { code: "hour_budget", evictedLastHour: 20, maxPerHour: 20 } },
  },
  // 2.3 x 3000 / 100 = 68.99999999999999 in binary floating point: still 69
  {
    name: "given 2.3 per 100 pod-hours and 3000 pods, returns 69 left (no rounding loss)",
    policy: { maxEvictionsPerHour: 1000, maxEvictionsPer100PodHours: 2.3 },
    evictedLastHour: 0,
    runningPods: 3000,
    want: { left: 69 },
  },
  // floor(100 x 7 / 100) = 7 < 20
  {
    name: "given 100 per 100 pod-hours and 7 pods, returns 7 left (each pod once an hour)",
    policy: { maxEvictionsPer100PodHours: 100 },
    evictedLastHour: 0,
    runningPods: 7,
    want: { left: 7 },
  },
];

describe("evictionsLeftThisHour", () => {
  for (const c of cases)
    it(c.name, () => {
      expect(evictionsLeftThisHour({ ...DEFAULTS, ...c.policy }, c.evictedLastHour, c.runningPods)).to.deep.equal(c.want);
    });
});
