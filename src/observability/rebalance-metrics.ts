import { Counter, Gauge, type Registry } from "prom-client";
import type { RebalanceHold } from "../rebalance/choose-evictions.js";

/** Every value `result` may take: a fixed set, so the series stay bounded. */
export const REBALANCE_RESULTS = ["evicted", "dry_run", "blocked_pdb", "gone", "failed"] as const;
export type RebalanceResult = (typeof REBALANCE_RESULTS)[number];

/** Every guard that may hold the whole cluster (`RebalanceHold`): the `guard` label's fixed set. */
export const REBALANCE_HOLDS = [
  "cluster_stale",
  "brake",
  "hour_budget",
  "pod_hours_budget",
] as const satisfies readonly RebalanceHold["code"][];

export interface RebalanceMetrics {
  counted(result: RebalanceResult): void;
  /** Hosts hot on a rebalance rule for at least `rebalance.hotForMinutes`, at the last cycle. */
  chronicHosts(count: number): void;
  /** The guard that held every eviction at the last cycle; undefined: none. */
  holding(guard: RebalanceHold["code"] | undefined): void;
}

export function createRebalanceMetrics(registry: Registry): RebalanceMetrics {
  const evictions = new Counter({
    name: "hvx_rebalance_evictions_total",
    help: "Rebalancer decisions by result: evicted, dry_run (decided, not evicted), blocked_pdb (429, retried next cycle), gone (404), failed",
    labelNames: ["result"],
    registers: [registry],
  });
  for (const r of REBALANCE_RESULTS) evictions.inc({ result: r }, 0);
  const chronic = new Gauge({
    name: "hvx_rebalance_chronic_hosts",
    help: "ESXi hosts hot on cpu ready or a memory rule for at least rebalance.hotForMinutes, at the last cycle",
    registers: [registry],
  });
  const holding = new Gauge({
    name: "hvx_rebalance_holding",
    help: "1 for the guard that held every eviction at the last cycle (cluster_stale, brake, hour_budget, pod_hours_budget), else 0",
    labelNames: ["guard"],
    registers: [registry],
  });
  for (const g of REBALANCE_HOLDS) holding.set({ guard: g }, 0);
  return {
    counted: (result) => evictions.inc({ result }),
    chronicHosts: (count) => chronic.set(count),
    holding: (guard) => {
      for (const g of REBALANCE_HOLDS) holding.set({ guard: g }, g === guard ? 1 : 0);
    },
  };
}
