import type { FilterOutcome, NodeScore } from "../placement/filter-nodes.js";
import type { Reason } from "../placement/reason.js";
import type { ExtenderFilterResult, HostPriority, WireNodeList } from "./extender-wire.js";
import type { ParsedExtenderArgs } from "./parse-extender-args.js";
import { formatReasons } from "./format-reason.js";

/**
 * Builds ExtenderFilterResult in the mode the request used: names back for NodeNames
 * (only names that were sent), a NodeList of the passing Node objects for Nodes.
 */
export function toFilterResultWire(request: ParsedExtenderArgs, outcome: FilterOutcome): ExtenderFilterResult {
  const failed = toReasonMap(outcome.failed);
  const unresolvable = toReasonMap(outcome.unresolvable);
  if (request.mode === "nodeNames") {
    return { Nodes: null, NodeNames: [...outcome.passed], FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: "" };
  }
  const list = request.args.Nodes as WireNodeList;
  const passing = new Set(outcome.passed);
  const items = list.items.filter((n) => passing.has(n.metadata?.name as string));
  const nodes: WireNodeList = { ...(list.apiVersion ? { apiVersion: list.apiVersion } : {}), ...(list.kind ? { kind: list.kind } : {}), metadata: list.metadata ?? {}, items };
  return { Nodes: nodes, NodeNames: null, FailedNodes: failed, FailedAndUnresolvableNodes: unresolvable, Error: "" };
}

/** A filter reply carrying only an error: kube-scheduler fails (or, if ignorable, skips) the extender. */
export function filterErrorWire(message: string): ExtenderFilterResult {
  return { Nodes: null, NodeNames: null, FailedNodes: {}, FailedAndUnresolvableNodes: {}, Error: message };
}

/** HostPriorityList: integer scores clamped to 0..10. */
export function toPrioritizeWire(scores: readonly NodeScore[]): HostPriority[] {
  return scores.map((s) => ({ Host: s.node, Score: Math.max(0, Math.min(10, Math.round(s.score))) }));
}

function toReasonMap(reasons: ReadonlyMap<string, readonly Reason[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [node, list] of reasons) out[node] = formatReasons(list);
  return out;
}
