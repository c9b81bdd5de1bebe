import type { NodeIdentity } from "../model/node.js";
import { decideNode, indexOf, RequestMemo, type NodeDecision, type PlacementContext } from "./decide-node.js";
import type { PodMeta } from "./exemption.js";
import type { FilterOutcome } from "./filter-nodes.js";
import type { PlacementPolicy, ThresholdPolicy } from "./policy.js";
import { mayPreempt } from "./may-preempt.js";
import type { Reason } from "./reason.js";
import { THRESHOLD_KEYS } from "./rules/index.js";

/** `filter.whenAllRejected`: what the filter does when host heat would reject every candidate. */
export type WhenAllRejected = "pass-coolest" | "reject";

/** What the safety valve did to one filter outcome where host heat rejected every candidate. */
export interface ValveOutcome {
  /** `passed-coolest`: the coolest tier was passed; `rejected`: `filter.whenAllRejected: reject` kept every rejection. */
  readonly action: "passed-coolest" | "rejected";
  /** The coolest tier's nodes: passed (action passed-coolest) or those the valve would have passed. */
  readonly passed: readonly string[];
  /**
   * The tier passed: the worst value/threshold ratio of their heat reasons, rounded up to 0.1
   * (Infinity: no numeric headroom, e.g. memory state hard).
   */
  readonly tier: number;
  /** Heat-rejected nodes left rejected because a hotter tier than the one passed. */
  readonly hotter: readonly string[];
  /**
   * Set when `pass-coolest` held the rejections because the pod may preempt (`mayPreempt`):
   * kube-scheduler then preempts on a node its own filters refused (e.g. a cool, full one)
   * rather than hvx sending the pod to a hot host.
   */
  readonly heldForPreemption?: true;
}

export interface ValvedFilterOutcome extends FilterOutcome {
  /** Set only when host heat rejected every candidate and some of them are eligible for the valve. */
  readonly valve?: ValveOutcome;
}

/** Reason codes that are host heat (a threshold crossed on the host or the node's VM), the only ones the valve may override. */
const HEAT_CODES: ReadonlySet<Reason["code"]> = new Set(["host_metric", "vm_metric"]);

/**
 * The safety valve (issue 15): when no candidate passes and host heat is why (at least one
 * node is rejected for heat alone), pass the heat-rejected nodes whose hosts are the coolest
 * tier present, so that hvx can never leave every pod Pending by itself. Nodes rejected by
 * another host rule (maintenance, disconnected, stale data by policy) or by a Kubernetes-layer
 * rule (limit overcommit, stacked overcommit, host spread) stay rejected: each heat-rejected
 * node is decided again with the heat thresholds lifted, and only those that then pass (or are
 * rejected for heat alone, e.g. a ballooned VM) are eligible.
 * A pod that may preempt (priority above the lowest running one, `preemptionPolicy` not `Never`)
 * is not passed to a hot host: kube-scheduler sends hvx only the nodes its own filters passed, so
 * the cool nodes where preemption could make room are not among the candidates (issue 25 §3).
 * Pure. With `setting: "reject"` (or a pod that may preempt) every rejection stays; the outcome
 * only notes what the valve would have passed.
 */
export function applyAllRejectedValve(
  outcome: FilterOutcome,
  pod: PodMeta,
  nodes: readonly NodeIdentity[],
  ctx: PlacementContext,
  setting: WhenAllRejected,
  memo: RequestMemo = new RequestMemo(nodes),
): ValvedFilterOutcome {
  if (outcome.passed.length > 0) return outcome;
  // Only the heat thresholds differ: the request's memo (exemption, stacked cap, spread) still holds.
  const index = indexOf(ctx);
  let blind: PlacementContext | undefined;
  let heatRejected = false;
  // Decisions come in the order the nodes were sent (filterNodes). Each eligible one with its tier.
  const eligible: Array<{ d: NodeDecision; tier: number }> = [];
  for (let i = 0; i < outcome.decisions.length; i++) {
    const d = outcome.decisions[i]!;
    const node = nodes[i];
    if (node?.name !== d.node || !heatOnly(d)) continue;
    heatRejected = true;
    // A kept decision stands for the same node, pod key, policy and ages: so does its re-decision.
    const tier = index.valveTier(d, () => {
      blind ??= { ...ctx, policy: index.derivedPolicy(ctx.policy, heatBlindPolicy), index };
      const again = decideNode(node, pod, blind, memo);
      return again.verdict === "pass" || (again.unresolvable && again.reasons.every((r) => HEAT_CODES.has(r.code)))
        ? heatTier(d)
        : undefined;
    });
    if (tier !== undefined) eligible.push({ d, tier });
  }
  if (!heatRejected || eligible.length === 0) return outcome;

  let tier = Number.POSITIVE_INFINITY;
  for (const e of eligible) tier = Math.min(tier, e.tier);
  const chosen = new Set(eligible.filter((e) => e.tier === tier).map((e) => e.d.node));
  const hotter = eligible.filter((e) => !chosen.has(e.d.node)).map((e) => e.d.node);
  if (setting === "reject") return new WithValve(outcome, { action: "rejected", passed: [...chosen], tier, hotter });
  if (mayPreempt(pod, ctx.cluster?.view))
    return new WithValve(outcome, { action: "rejected", passed: [...chosen], tier, hotter, heldForPreemption: true });
  return {
    // In the order the nodes were sent.
    passed: outcome.decisions.filter((d) => chosen.has(d.node)).map((d) => d.node),
    decisions: outcome.decisions,
    failed: outcome.failed,
    unresolvable: new Map([...outcome.unresolvable].filter(([node]) => !chosen.has(node))),
    valve: { action: "passed-coolest", passed: [...chosen], tier, hotter },
  };
}

/** An outcome left as it was, with the valve's note; its reason maps are still built only when read (a class: see FilteredNodes). */
class WithValve implements ValvedFilterOutcome {
  constructor(
    private readonly outcome: FilterOutcome,
    readonly valve: ValveOutcome,
  ) {}

  get passed(): readonly string[] {
    return this.outcome.passed;
  }

  get decisions(): readonly NodeDecision[] {
    return this.outcome.decisions;
  }

  get failed(): ReadonlyMap<string, readonly Reason[]> {
    return this.outcome.failed;
  }

  get unresolvable(): ReadonlyMap<string, readonly Reason[]> {
    return this.outcome.unresolvable;
  }
}

/** Rejected, unresolvably, for host heat alone. */
function heatOnly(d: NodeDecision): boolean {
  return d.verdict === "reject" && d.unresolvable && d.reasons.length > 0 && d.reasons.every((r) => HEAT_CODES.has(r.code));
}

/**
 * How far over its thresholds a node's host (and VM) is: the largest value/threshold ratio of its
 * heat reasons, rounded up to tenths (ready 12 % >= 10 % -> 1.2). A reason without a numeric
 * ratio (memory state hard, any VM balloon > 0 MiB) counts as Infinity: no headroom known.
 */
export function heatTier(d: Pick<NodeDecision, "reasons">): number {
  let worst = 0;
  for (const r of d.reasons) {
    if (r.code !== "host_metric" && r.code !== "vm_metric") continue;
    const ratio =
      typeof r.value === "number" && typeof r.threshold === "number" && r.threshold > 0 ? r.value / r.threshold : Number.POSITIVE_INFINITY;
    worst = Math.max(worst, ratio);
  }
  return Number.isFinite(worst) ? Math.ceil(Math.round(worst * 1000) / 100) / 10 : worst;
}

/** The policy with every heat threshold lifted (data age kept; a rule left off stays off). */
function heatBlindPolicy(policy: PlacementPolicy): PlacementPolicy {
  const thresholds: { -readonly [K in keyof ThresholdPolicy]: ThresholdPolicy[K] } = { ...policy.thresholds };
  // A fixed threshold (any VM balloon) is not lifted: such a node stays rejected for heat alone, which the valve allows.
  for (const key of THRESHOLD_KEYS.flatMap((k) => (k.warn !== undefined ? [k.reject, k.warn] : [k.reject])))
    if (thresholds[key] !== undefined) thresholds[key] = Number.POSITIVE_INFINITY;
  return { ...policy, thresholds };
}
