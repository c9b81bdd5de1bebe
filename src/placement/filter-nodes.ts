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
  const decisions: NodeDecision[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const d = (decisions[i] = decideNode(nodes[i]!, pod, ctx, memo));
    if (d.verdict === "pass") passed.push(d.node);
  }
  // The reason maps only when asked for: the extender's reply is built from the decisions.
  let rejected: { failed: Map<string, readonly Reason[]>; unresolvable: Map<string, readonly Reason[]> } | undefined;
  const split = () => (rejected ??= splitRejected(decisions));
  return {
    passed,
    decisions,
    get failed() {
      return split().failed;
    },
    get unresolvable() {
      return split().unresolvable;
    },
  };
}

function splitRejected(decisions: readonly NodeDecision[]) {
  const failed = new Map<string, readonly Reason[]>();
  const unresolvable = new Map<string, readonly Reason[]>();
  for (const d of decisions) if (d.verdict !== "pass") (d.unresolvable ? unresolvable : failed).set(d.node, d.reasons);
  return { failed, unresolvable };
}

export interface NodeScore {
  readonly node: string;
  /** Integer 0..10. */
  readonly score: number;
  /** Why the score is what it is when hvx has no opinion (e.g. node_unmapped); empty otherwise. */
  readonly reasons?: readonly Reason[];
}

/** The extender's prioritize: an integer 0..10 per node, in the order sent (each node's decision is its score). */
export function prioritizeNodes(pod: PodMeta, nodes: readonly NodeIdentity[], ctx: PlacementContext): NodeScore[] {
  const memo = new RequestMemo(nodes);
  return nodes.map((node) => decideNode(node, pod, ctx, memo));
}
