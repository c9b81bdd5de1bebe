import { Counter, Histogram, type Registry } from "prom-client";

export type ExtenderVerb = "filter" | "prioritize" | "preempt";

const VERDICTS = ["reject", "no_opinion", "pass"] as const;

type VerdictOf = { verdict: "pass" | "reject"; noOpinion: boolean; reasons: ReadonlyArray<{ code: string }> };
export type VerdictTally = ReadonlyArray<{ readonly verdict: string; readonly reason: string; readonly n: number }>;

/** Metrics of the extender routes. Labels are closed sets: verb, outcome, verdict, reason code. */
export class ExtenderMetrics {
  private readonly requests: Counter<"verb" | "outcome">;
  private readonly duration: Histogram<"verb">;
  private readonly verdicts: Counter<"verdict" | "reason">;
  /** Each reason code seen, numbered. */
  private readonly codeIds = new Map<string, number>();

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
  countVerdicts(decisions: readonly VerdictOf[]): void {
    this.countTally(this.tallyVerdicts(decisions));
  }

  /** The counts `countVerdicts` adds, for a caller that counts the same decisions again (`countTally`). */
  tallyVerdicts(decisions: readonly VerdictOf[]): VerdictTally {
    // Reason codes are a closed set: a counter per (code, verdict) in a flat array, no map written per node.
    const counts: number[] = [];
    for (const d of decisions) {
      const code = d.reasons.length > 0 ? d.reasons[0]!.code : "none";
      let id = this.codeIds.get(code);
      if (id === undefined) this.codeIds.set(code, (id = this.codeIds.size));
      const slot = id * 3 + (d.verdict === "reject" ? 0 : d.noOpinion ? 1 : 2);
      counts[slot] = (counts[slot] ?? 0) + 1;
    }
    const tally: Array<{ verdict: string; reason: string; n: number }> = [];
    for (const [reason, id] of this.codeIds)
      for (let v = 0; v < 3; v++) {
        const n = counts[id * 3 + v];
        if (n) tally.push({ verdict: VERDICTS[v]!, reason, n });
      }
    return tally;
  }

  countTally(tally: VerdictTally): void {
    for (const { verdict, reason, n } of tally) this.verdicts.inc({ verdict, reason }, n);
  }
}
