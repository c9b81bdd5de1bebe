import { Counter, Histogram, type Registry } from "prom-client";

export type ExtenderVerb = "filter" | "prioritize" | "preempt";

/** Metrics of the extender routes. Labels are closed sets: verb, outcome, verdict, reason code. */
export class ExtenderMetrics {
  private readonly requests: Counter<"verb" | "outcome">;
  private readonly duration: Histogram<"verb">;
  private readonly verdicts: Counter<"verdict" | "reason">;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: "hvx_extender_requests_total",
      help: "Extender requests by verb and outcome (ok, bad_request, internal_error).",
      labelNames: ["verb", "outcome"],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: "hvx_extender_request_duration_seconds",
      help: "Time to handle one extender request, parse to reply.",
      labelNames: ["verb"],
      // Up to 2 s: the recommended kube-scheduler httpTimeout (manifests/kube-scheduler-config.yaml),
      // so that a p99 near it is measurable (the HvxExtenderSlow alert).
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 2],
      registers: [registry],
    });
    this.verdicts = new Counter({
      name: "hvx_filter_node_verdicts_total",
      help: "Filter decisions per node: pass, reject or no_opinion, with the first reason code.",
      labelNames: ["verdict", "reason"],
      registers: [registry],
    });
  }

  observeRequest(verb: ExtenderVerb, outcome: "ok" | "bad_request" | "internal_error", seconds: number): void {
    this.requests.inc({ verb, outcome });
    this.duration.observe({ verb }, seconds);
  }

  /** Counts a request's node decisions, one increment per (verdict, reason) pair. */
  countVerdicts(
    decisions: ReadonlyArray<{ verdict: "pass" | "reject"; noOpinion: boolean; reasons: ReadonlyArray<{ code: string }> }>,
  ): void {
    const tally = new Map<string, Map<string, number>>();
    for (const d of decisions) {
      const verdict = d.verdict === "reject" ? "reject" : d.noOpinion ? "no_opinion" : "pass";
      const reason = d.reasons[0]?.code ?? "none";
      let byReason = tally.get(verdict);
      if (!byReason) tally.set(verdict, (byReason = new Map()));
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    }
    for (const [verdict, byReason] of tally) for (const [reason, n] of byReason) this.verdicts.inc({ verdict, reason }, n);
  }
}
