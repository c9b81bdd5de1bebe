import type { NodeIdentity } from "../model/node.js";
import { decideEach } from "./decide-each.js";
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
 * what the request computes once (pass the same one to `applyAllRejectedValve`). `earlier`: a
 * previous request's decisions, handed back when they are all the same (`decideEach`).
 */
export function filterNodes(
  pod: PodMeta,
  nodes: readonly NodeIdentity[],
  ctx: PlacementContext,
  memo: RequestMemo = new RequestMemo(nodes),
  earlier?: readonly NodeDecision[],
): FilterOutcome {
  return new FilteredNodes(decideEach(nodes, (node) => decideNode(node, pod, ctx, memo), earlier));
}

/**
 * A filter outcome whose passing names and reason maps are built only when read: the
 * extender's reply is built from the decisions, or answered again without reading either
 * (src/server/reply-memo.ts). A class, not an object literal with getters: V8 allocates a
 * literal's accessor pair in the old generation, and an old object pointing at young ones keeps
 * them alive at every scavenge, so each request's closures and arrays were copied and promoted
 * (docs/performance.md, "Fifth pass").
 */
class FilteredNodes implements FilterOutcome {
  private passedNames: readonly string[] | undefined;
  private rejected: { failed: Map<string, readonly Reason[]>; unresolvable: Map<string, readonly Reason[]> } | undefined;

  constructor(readonly decisions: readonly NodeDecision[]) {}

  get passed(): readonly string[] {
    return (this.passedNames ??= this.decisions.filter((d) => d.verdict === "pass").map((d) => d.node));
  }

  get failed(): ReadonlyMap<string, readonly Reason[]> {
    return (this.rejected ??= splitRejected(this.decisions)).failed;
  }

  get unresolvable(): ReadonlyMap<string, readonly Reason[]> {
    return (this.rejected ??= splitRejected(this.decisions)).unresolvable;
  }
}

function splitRejected(decisions: readonly NodeDecision[]) {
  const failed = new Map<string, readonly Reason[]>();
  const unresolvable = new Map<string, readonly Reason[]>();
  for (const d of decisions) if (d.verdict !== "pass") (d.unresolvable ? unresolvable : failed).set(d.node, d.reasons);
  return { failed, unresolvable };
}

export interface NodeScore {
  readonly node: string;
  /** 0..10, fractional when a Kubernetes-layer adjustment is (kube-scheduler receives `extenderPriority(score)`). */
  readonly score: number;
  /** Why the score is what it is when hvx has no opinion (e.g. node_unmapped); empty otherwise. */
  readonly reasons?: readonly Reason[];
}

/**
 * The priority kube-scheduler receives for a score: extenders answer integers (`HostPriority.Score`,
 * an int64), at most `MaxExtenderPriority` (10).
 */
export function extenderPriority(score: number): number {
  return Math.max(0, Math.min(10, Math.round(score)));
}

/**
 * The extender's prioritize: a score 0..10 per node, in the order sent (each node's decision
 * is its score). `earlier`: as for `filterNodes`.
 */
export function prioritizeNodes(
  pod: PodMeta,
  nodes: readonly NodeIdentity[],
  ctx: PlacementContext,
  earlier?: readonly NodeScore[],
): readonly NodeScore[] {
  const memo = new RequestMemo(nodes);
  return decideEach<NodeIdentity, NodeScore>(nodes, (node) => decideNode(node, pod, ctx, memo), earlier);
}
