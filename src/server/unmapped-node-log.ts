import type { NodeIdentity } from "../model/node.js";
import type { Logger } from "../observability/logger.js";
import { RateLimited } from "../observability/rate-limited.js";
import type { PlacementPolicy } from "../placement/policy.js";
import type { Reason } from "../placement/reason.js";

/** An unmapped node is logged at most once per node and this window. */
export const UNMAPPED_LOG_INTERVAL_MS = 600_000;
/** At most this many unmapped nodes are named per request; the rest wait for later requests (one summary line says so). */
export const UNMAPPED_LINES_PER_REQUEST = 20;
/**
 * Unmapped nodes remembered by the log limiter. With fewer (the limiter's default 1000), a
 * cluster with more unmapped nodes than that forgot each one before its window ended and named
 * every one again on every request: a log line per node and request.
 */
const UNMAPPED_LOG_MAX_KEYS = 20_000;

/** A node hvx cannot map passes with the neutral score and no other trace: the extender says so, rarely. */
export class UnmappedNodeLog {
  private readonly perNode: RateLimited;
  private readonly summary: RateLimited;

  constructor(
    private readonly log: Logger,
    private readonly policy: Pick<PlacementPolicy, "nodeMapping" | "scoring">,
    clock: () => number,
  ) {
    this.perNode = new RateLimited(UNMAPPED_LOG_INTERVAL_MS, clock, UNMAPPED_LOG_MAX_KEYS);
    this.summary = new RateLimited(UNMAPPED_LOG_INTERVAL_MS, clock);
  }

  /** Logs the request's nodes whose answer (same position) says `node_unmapped`, each once per window. */
  note(nodes: readonly NodeIdentity[], answers: ReadonlyArray<{ readonly reasons?: readonly Reason[] }>): void {
    let named = 0;
    let unnamed = 0;
    for (let i = 0; i < nodes.length; i++) {
      const reasons = answers[i]?.reasons;
      if (reasons === undefined || reasons.length === 0 || reasons[0]!.code !== "node_unmapped") continue;
      const node = nodes[i]!;
      if (named >= UNMAPPED_LINES_PER_REQUEST) {
        unnamed++;
        continue;
      }
      const suppressed = this.perNode.allow(node.name);
      if (suppressed === undefined) continue;
      this.log.warn(
        {
          node: node.name,
          providerID: node.providerID ?? null,
          systemUUID: node.systemUUID ?? null,
          rules: this.policy.nodeMapping,
          unknownScore: this.policy.scoring.unknownScore,
          similarSuppressed: suppressed,
        },
        "node not mapped to any VM: hvx has no opinion on it (passes, neutral score); see GET /debug/nodes",
      );
      named++;
    }
    if (unnamed > 0 && this.summary.allow("more") !== undefined) {
      this.log.warn(
        { notNamedInThisRequest: unnamed, linesPerRequest: UNMAPPED_LINES_PER_REQUEST },
        "more nodes not mapped to any VM than one request names (each is named once per window, over later requests); see GET /debug/nodes",
      );
    }
  }
}
