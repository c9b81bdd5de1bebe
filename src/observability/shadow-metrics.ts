import { Counter, type Registry } from "prom-client";

/**
 * Metrics of what hvx would do (observe mode) and of the all-rejected safety valve.
 * Labels are closed sets: verb, verdict and a reason code (never free text).
 */
export class ShadowMetrics {
  private readonly decisions: Counter<"verb" | "verdict" | "reason">;
  private readonly allRejected: Counter<"action">;

  constructor(registry: Registry) {
    this.decisions = new Counter({
      name: "hvx_shadow_decisions_total",
      help: "Observe mode: what hvx would have decided, per node (filter, prioritize, preempt) or per pod (mutate), with the reason code.",
      labelNames: ["verb", "verdict", "reason"],
      registers: [registry],
    });
    this.allRejected = new Counter({
      name: "hvx_filter_all_rejected_total",
      help: "Filter requests where host heat rejected every candidate node: action passed_coolest (the safety valve passed the coolest tier) or rejected (filter.whenAllRejected: reject).",
      labelNames: ["action"],
      registers: [registry],
    });
  }

  /** `verb`: filter | prioritize | preempt | mutate; `verdict` and `reason` from closed sets. */
  countShadow(verb: string, verdict: string, reason: string, n = 1): void {
    if (n > 0) this.decisions.inc({ verb, verdict, reason }, n);
  }

  countAllRejected(action: "passed_coolest" | "rejected"): void {
    this.allRejected.inc({ action });
  }
}
