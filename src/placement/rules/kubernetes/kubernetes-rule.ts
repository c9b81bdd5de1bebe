import type { PodView } from "../../../model/cluster.js";
import type { SpreadRule } from "../../host-spread.js";
import type { HostEntry, PlacementIndex } from "../../placement-index.js";
import type { PlacementPolicy } from "../../policy.js";
import type { Reason } from "../../reason.js";

/** What a Kubernetes-layer rule may read of the incoming pod and its request. */
export interface PodFacts {
  /**
   * The incoming pod; its uid is "" when no pod list of the view holds it (a pending pod, the common
   * case), so that no rule asks a host's uid set for a pod that cannot be in it.
   */
  readonly pod: PodView;
  /** The pod's replica-spread rule; undefined: no replica group. */
  readonly spread: SpreadRule | undefined;
  /** Fewest replicas of the pod's owner on any candidate's host (computed on first use). */
  readonly leastReplicas: (rule: SpreadRule) => number;
  /**
   * The least of `measure` over the hosts of the request's candidate nodes (hosts it has no
   * opinion on, undefined, skipped; undefined when it has none), once per request and `name`.
   * `floor`: the least `measure` can be; the scan stops at the first host that reaches it.
   */
  readonly leastOnCandidates: (name: string, measure: CandidateMeasure, floor?: number) => number | undefined;
}

/** A number a rule reads of each candidate host, for `PodFacts.leastOnCandidates`. */
export type CandidateMeasure = (entry: HostEntry, index: PlacementIndex, policy: PlacementPolicy) => number | undefined;

/** One request as a rule sees it: the pod's facts, the policy and the snapshot's index. */
export interface RuleRequest {
  readonly facts: PodFacts;
  readonly policy: PlacementPolicy;
  readonly index: PlacementIndex;
  readonly nowMs: number;
  /** False when the request answers verdicts alone (a filter): an adjustment that reads `relativeKey`'s facts may be left out. */
  readonly scores: boolean;
}

/** Score points a rule takes off a host for this pod (never below the host's heat tier), named for explain. */
export interface ScoreAdjustment {
  readonly rule: string;
  /** >= 0. */
  readonly points: number;
  /** What explain shows beside the points, e.g. `ratio 1.80 of 2`. */
  readonly detail?: string;
}

/**
 * An adjustment whose explain text is written when read. Every request judges every candidate host
 * and its nodes' decisions are kept for a while: texts written eagerly were most of what those
 * judgements left to the old generation, and only explain reads them (docs/performance.md, "The
 * ninth stop"). explain copies it into plain data (explain-node.ts).
 */
export class ExplainedAdjustment implements ScoreAdjustment {
  private text: string | undefined;

  constructor(
    readonly rule: string,
    readonly points: number,
    private readonly explain: () => string,
  ) {}

  get detail(): string {
    return (this.text ??= this.explain());
  }
}

/** A rule's view of one host for one request: rejections (empty: none) and its score adjustment. */
export interface HostJudgement {
  readonly reasons: readonly Reason[];
  readonly adjustment?: ScoreAdjustment;
}

/**
 * A rule of the Kubernetes layer (limits, stacked cap, spread, burst guard), declared once.
 * Decisions are kept per pod key and answered to every pod with the same key: the key is built
 * from every rule's `podKey`, so a rule that reads a new fact of the pod says so here or its
 * decisions would be answered to pods that differ in it.
 */
export interface KubernetesRule {
  readonly name: string;
  /**
   * Everything of the pod and its request the rule's verdict and penalty depend on, as text ("" for
   * nothing), but for what `relativeKey` names.
   */
  readonly podKey: (facts: PodFacts) => string;
  /**
   * What of the request's candidates the rule's score adjustment alone reads (never its reasons), as
   * text; absent: nothing. A fewest-on-any-candidate count moves with nearly every binding of the
   * pod's group: a kept decision is then re-scored from its judgement, not decided again.
   */
  readonly relativeKey?: (facts: PodFacts) => string;
  /** Judges one host for the request, once per host and request (undefined: no opinion). */
  readonly onHost?: (entry: HostEntry, request: RuleRequest) => HostJudgement | undefined;
}
