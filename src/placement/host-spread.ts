import type { PodView } from "../model/cluster.js";
import type { HostView } from "../model/inventory.js";
import { podTotals, type PodTotals } from "./pod-totals.js";
import type { Reason } from "./reason.js";

export const HOST_SPREAD_ANNOTATION = "hvx.io/host-spread";
export const HOST_SPREAD_MAX_SKEW_ANNOTATION = "hvx.io/host-spread-max-skew";

/** Score points per replica above the least loaded candidate host, and their cap (`scoring.*`). */
export interface SpreadWeights {
  readonly spreadPenaltyPerReplica: number;
  readonly maxSpreadPenalty: number;
}
export const DEFAULT_SPREAD_WEIGHTS: SpreadWeights = { spreadPenaltyPerReplica: 2, maxSpreadPenalty: 6 };

export interface SpreadRule {
  readonly owner: string;
  /** `hvx.io/host-spread: required` turns the preference into a filter. */
  readonly required: boolean;
  readonly maxSkew: number;
  readonly weights: SpreadWeights;
}

/** The incoming pod's spread rule, or undefined when it has no replica group. */
export function spreadRuleOf(
  pod: PodView,
  annotations: Readonly<Record<string, string>>,
  weights: SpreadWeights = DEFAULT_SPREAD_WEIGHTS,
): SpreadRule | undefined {
  if (pod.ownerKey === undefined) return undefined;
  const skew = Number(annotations[HOST_SPREAD_MAX_SKEW_ANNOTATION] ?? "1");
  return {
    owner: pod.ownerKey,
    required: annotations[HOST_SPREAD_ANNOTATION] === "required",
    maxSkew: Number.isInteger(skew) && skew >= 1 ? skew : 1,
    weights,
  };
}

/** Replicas of `owner` on a host's node VMs. */
export function replicasOn(podsOnHost: readonly PodView[], owner: string, exceptUid: string): number {
  return replicasIn(podTotals(podsOnHost), podsOnHost, owner, exceptUid);
}

/** `replicasOn` with the list's totals already at hand. */
export function replicasIn(totals: PodTotals, podsOnHost: readonly PodView[], owner: string, exceptUid: string): number {
  const n = totals.replicasByOwner.get(owner) ?? 0;
  if (exceptUid === "" || !totals.uids.has(exceptUid)) return n;
  // The incoming pod itself is listed: count it out only if it belongs to this owner.
  return podsOnHost.some((p) => p.uid === exceptUid && p.ownerKey === owner) ? n - 1 : n;
}

/** The spread's points for `above` replicas over even, capped (0 for none or fewer). */
export function spreadPoints(above: number, weights: SpreadWeights): number {
  return Math.min(weights.maxSpreadPenalty, weights.spreadPenaltyPerReplica * Math.max(0, above));
}

export interface SpreadCheck {
  readonly penalty: number;
  readonly reason?: Reason;
}

/**
 * Replicas already on this host lower its score: by default 2 points per replica above the
 * least loaded candidate host, at most 6 (never below the host's heat tier, see `penalise`).
 * When required, a host whose count would exceed the least loaded candidate's by more than
 * maxSkew is filtered out.
 */
export function checkSpread(host: HostView, onHost: number, leastOnCandidates: number, rule: SpreadRule): SpreadCheck {
  const penalty = spreadPoints(onHost - leastOnCandidates, rule.weights);
  if (rule.required && onHost + 1 - leastOnCandidates > rule.maxSkew) {
    return {
      penalty,
      reason: {
        code: "host_spread",
        host: { id: host.id, name: host.name },
        owner: rule.owner,
        onHost,
        leastOnCandidates,
        maxSkew: rule.maxSkew,
      },
    };
  }
  return { penalty };
}
