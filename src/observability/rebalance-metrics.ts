import { Counter, Gauge, type Registry } from "prom-client";

/** Every value `result` may take: a fixed set, so the series stay bounded. */
export const REBALANCE_RESULTS = ["evicted", "dry_run", "blocked_pdb", "gone", "failed"] as const;
export type RebalanceResult = (typeof REBALANCE_RESULTS)[number];

export interface RebalanceMetrics {
  counted(result: RebalanceResult): void;
  /** Hosts hot on a rebalance rule for at least `rebalance.hotForMinutes`, at the last cycle. */
  chronicHosts(count: number): void;
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
  return {
    counted: (result) => evictions.inc({ result }),
    chronicHosts: (count) => chronic.set(count),
  };
}
