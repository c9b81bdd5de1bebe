import type { NodeIdentity } from "../model/node.js";
import { decideNode, RequestMemo, type NodeDecision, type PlacementContext } from "./decide-node.js";
import type { PodMeta } from "./exemption.js";
import type { Reason } from "./reason.js";

export interface FilterOutcome {
  /** Names that pass, in the order they were sent. */
  readonly passed: readonly string[];
  /** Rejections preemption could fix (Kubernetes-layer rules). */
  readonly failed: ReadonlyMap<string, readonly Reason[]>;
  /** Rejections preemption cannot fix (host heat, state, stale data by policy). */
  readonly unresolvable: ReadonlyMap<string, readonly Reason[]>;
  readonly decisions: readonly NodeDecision[];
}

/**
 * The extender's filter: every node sent is either passed or rejected with reasons. `memo`:
 * what the request computes once (pass the same one to `applyAllRejectedValve`).
 */
export function filterNodes(
  pod: PodMeta,
  nodes: readonly NodeIdentity[],
  ctx: PlacementContext,
  memo: RequestMemo = new RequestMemo(nodes),
): FilterOutcome {
  const passed: string[] = [];
  const failed = new Map<string, readonly Reason[]>();
  const unresolvable = new Map<string, readonly Reason[]>();
  const decisions = nodes.map((node) => decideNode(node, pod, ctx, memo));
  for (const d of decisions) {
    if (d.verdict === "pass") passed.push(d.node);
    else (d.unresolvable ? unresolvable : failed).set(d.node, d.reasons);
  }
  return { passed, failed, unresolvable, decisions };
}

export interface NodeScore {
  readonly node: string;
  /** Integer 0..10. */
  readonly score: number;
  /** Why the score is what it is when hvx has no opinion (e.g. node_unmapped); empty otherwise. */
  readonly reasons?: readonly Reason[];
}

/** The extender's prioritize: an integer 0..10 per node, in the order sent. */
export function prioritizeNodes(pod: PodMeta, nodes: readonly NodeIdentity[], ctx: PlacementContext): NodeScore[] {
  const memo = new RequestMemo(nodes);
  return nodes.map((node) => {
    const d = decideNode(node, pod, ctx, memo);
    return { node: node.name, score: d.score, reasons: d.reasons };
  });
}
