import type { Logger } from "../observability/logger.js";
import { RateLimited } from "../observability/rate-limited.js";
import type { ShadowMetrics } from "../observability/shadow-metrics.js";
import { ShadowRing, type ShadowEntry } from "../observability/shadow-ring.js";
import type { NodeDecision } from "../placement/decide-node.js";
import type { ValvedFilterOutcome } from "../placement/all-rejected-valve.js";
import type { NodeScore } from "../placement/filter-nodes.js";
import type { PreemptionOutcome } from "../placement/preemption-candidates.js";
import type { Reason } from "../placement/reason.js";
import { formatReasons } from "../protocol/format-reason.js";

/** At most one observe-mode log line per verb in this window; the rest are counted. */
export const SHADOW_LOG_INTERVAL_MS = 10_000;
/** A `/debug/shadow` entry names at most this many nodes of one request. */
const ENTRY_MAX_NODES = 20;

export interface ShadowRecorderDeps {
  readonly metrics: ShadowMetrics;
  readonly log: Logger;
  readonly clock: () => number;
  /** How many would-be rejections `/debug/shadow` keeps. */
  readonly capacity?: number;
}

/**
 * Observe mode: records what hvx would have done while the reply says nothing. Counts every
 * would-be verdict in `hvx_shadow_decisions_total`, logs (at most once per verb and window)
 * and keeps the last would-be rejections for `GET /debug/shadow`.
 */
export class ShadowRecorder {
  private readonly ring: ShadowRing;
  private readonly limiter: RateLimited;

  constructor(private readonly deps: ShadowRecorderDeps) {
    this.ring = new ShadowRing(deps.capacity);
    this.limiter = new RateLimited(SHADOW_LOG_INTERVAL_MS, deps.clock);
  }

  filter(pod: string, outcome: ValvedFilterOutcome): void {
    const valved = new Set(outcome.valve?.action === "passed-coolest" ? outcome.valve.passed : []);
    const tally = new Tally();
    for (const d of outcome.decisions) tally.add(valved.has(d.node) ? "pass_coolest" : verdictOf(d), d.reasons[0]?.code ?? "none");
    tally.flush(this.deps.metrics, "filter");
    const rejected = outcome.decisions.filter((d) => d.verdict === "reject" && !valved.has(d.node));
    if (rejected.length === 0) return;
    this.remember(
      { verb: "filter", pod, verdict: "reject", reasons: nodeReasons(rejected) },
      {
        pod,
        wouldReject: rejected.length,
        of: outcome.decisions.length,
        ...(valved.size > 0 ? { wouldPassCoolest: [...valved].slice(0, ENTRY_MAX_NODES) } : {}),
      },
    );
  }

  prioritize(scores: readonly NodeScore[], neutral: number): void {
    const tally = new Tally();
    for (const s of scores) {
      const verdict = s.score < neutral ? "below_neutral" : s.score > neutral ? "above_neutral" : "neutral";
      tally.add(verdict, s.reasons?.[0]?.code ?? "none");
    }
    tally.flush(this.deps.metrics, "prioritize");
  }

  preempt(pod: string, outcome: PreemptionOutcome): void {
    const tally = new Tally();
    for (const v of outcome.verdicts) tally.add(v.keep ? "keep" : "drop", v.reasons[0]?.code ?? "none");
    tally.flush(this.deps.metrics, "preempt");
    const dropped = outcome.verdicts.filter((v) => !v.keep);
    if (dropped.length === 0) return;
    this.remember(
      { verb: "preempt", pod, verdict: "drop", reasons: nodeReasons(dropped) },
      { pod, wouldDrop: dropped.length, of: outcome.verdicts.length },
    );
  }

  /** Newest first. */
  recent(): ShadowEntry[] {
    return this.ring.recent();
  }

  private remember(entry: Omit<ShadowEntry, "at">, logFields: Record<string, unknown>): void {
    const at = new Date(this.deps.clock()).toISOString();
    this.ring.push({ at, ...entry });
    const suppressed = this.limiter.allow(entry.verb);
    if (suppressed === undefined) return;
    this.deps.log.info(
      { verb: entry.verb, ...logFields, reasons: entry.reasons.slice(0, 3), similarSuppressed: suppressed },
      `observe: hvx would have ${entry.verdict === "drop" ? "dropped preemption candidates" : "rejected nodes"} (mode: observe, nothing enforced)`,
    );
  }
}

function verdictOf(d: NodeDecision): string {
  return d.verdict === "reject" ? "reject" : d.noOpinion ? "no_opinion" : "pass";
}

function nodeReasons(items: ReadonlyArray<{ node: string; reasons: readonly Reason[] }>): string[] {
  const lines = items.slice(0, ENTRY_MAX_NODES).map((i) => `${i.node}: ${formatReasons(i.reasons)}`);
  if (items.length > ENTRY_MAX_NODES) lines.push(`... and ${items.length - ENTRY_MAX_NODES} more nodes`);
  return lines;
}

/** Per-request counts by (verdict, reason code), added to the counter once each. */
class Tally {
  private readonly counts = new Map<string, { verdict: string; reason: string; n: number }>();

  add(verdict: string, reason: string): void {
    const key = `${verdict}\u0000${reason}`;
    const known = this.counts.get(key);
    if (known) known.n += 1;
    else this.counts.set(key, { verdict, reason, n: 1 });
  }

  flush(metrics: ShadowMetrics, verb: string): void {
    for (const c of this.counts.values()) metrics.countShadow(verb, c.verdict, c.reason, c.n);
  }
}
