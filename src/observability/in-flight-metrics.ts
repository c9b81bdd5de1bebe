import { Counter, Gauge, type Registry } from "prom-client";
import { IN_FLIGHT_DROP_REASONS, type InFlightDropReason } from "../placement/in-flight-ledger.js";

export interface InFlightMetrics {
  readonly onDrop: (reason: InFlightDropReason) => void;
  readonly onRefused: () => void;
}

/**
 * The in-flight ledger's metrics: `hvx_inflight_entries` (read at scrape time from `entries`),
 * `hvx_inflight_dropped_total{reason}` and `hvx_inflight_refused_total`. Labels come from a
 * fixed set, never from a request.
 */
export function createInFlightMetrics(registry: Registry, entries: () => number): InFlightMetrics {
  new Gauge({
    name: "hvx_inflight_entries",
    help: "Pods hvx answered for and counts on their assumed node until the informer shows them bound or gone.",
    registers: [registry],
    collect() {
      this.set(entries());
    },
  });
  const dropped = new Counter({
    name: "hvx_inflight_dropped_total",
    help: "In-flight entries ended, by reason (bound, deleted, expired after 30 s, node_limit and total_limit: a bound was reached).",
    labelNames: ["reason"] as const,
    registers: [registry],
  });
  for (const reason of IN_FLIGHT_DROP_REASONS) dropped.inc({ reason }, 0);
  const refused = new Counter({
    name: "hvx_inflight_refused_total",
    help: "Prioritize answers not recorded in flight: the informer does not know the pod as pending (unknown uid, already bound, not yet seen).",
    registers: [registry],
  });
  return { onDrop: (reason) => dropped.inc({ reason }), onRefused: () => refused.inc() };
}
