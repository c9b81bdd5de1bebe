import type { MetricsSource } from "../model/metrics-source.js";
import type { NodeIdentity } from "../model/node.js";
import type { ExtenderMetrics } from "../observability/extender-metrics.js";
import type { Logger } from "../observability/logger.js";
import type { ShadowMetrics } from "../observability/shadow-metrics.js";
import type { ValvedFilterOutcome, WhenAllRejected } from "../placement/all-rejected-valve.js";
import type { PlacementContext } from "../placement/decide-node.js";
import type { NodeScore } from "../placement/filter-nodes.js";
import type { PlacementPolicy } from "../placement/policy.js";
import type { ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import type { ShadowRecorder } from "./shadow-recorder.js";

/** What the extender verbs need from the process (`createExtenderHandlers`). */
export interface ExtenderDeps {
  readonly source: MetricsSource;
  readonly policy: PlacementPolicy;
  readonly metrics: ExtenderMetrics;
  readonly log: Logger;
  readonly clock?: () => number;
  /** Extends the context per request (cluster awareness); identity when absent. */
  readonly enrich?: (ctx: PlacementContext, request: ParsedExtenderArgs) => PlacementContext;
  /**
   * `observe`: answer as if hvx were not there (pass all, neutral scores, candidates unchanged)
   * and record what it would have done. Default enforce.
   */
  readonly mode?: "enforce" | "observe";
  /** Needed in observe mode: where would-be decisions go. */
  readonly shadow?: ShadowRecorder;
  /** `filter.whenAllRejected`; default `reject` (today's behaviour) when absent. */
  readonly whenAllRejected?: WhenAllRejected;
  /** Counts `hvx_filter_all_rejected_total`. */
  readonly shadowMetrics?: ShadowMetrics;
  /** Told the nodes of every filter and prioritize request (`/debug/nodes` without a cache). */
  readonly onNodes?: (nodes: readonly NodeIdentity[]) => void;
  /** Told each filter outcome in enforce mode (pods rejected for host heat, requeued when it cools: src/cluster/pod-requeuer.ts). */
  readonly onFiltered?: (request: ParsedExtenderArgs, outcome: ValvedFilterOutcome) => void;
  /** Told hvx's prioritize scores in enforce mode (the in-flight ledger, src/placement/in-flight-ledger.ts). */
  readonly onPrioritized?: (scores: readonly NodeScore[], ctx: PlacementContext) => void;
  /** Runs work between requests (the correlated groups' learning, a slice at a time); `setImmediate` when absent. */
  readonly runLater?: (task: () => void) => void;
}
