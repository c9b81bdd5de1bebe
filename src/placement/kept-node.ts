/**
 * The relative key of a request that answers verdicts alone (a filter): its decisions carry no
 * adjustment that reads the other candidates, and any kept decision answers it.
 */
export const UNSCORED = "(unscored)";

/**
 * A node's kept decision with the judgement it was scored from. A rule whose adjustment reads the
 * request's candidates (`KubernetesRule.relativeKey`, e.g. the fewest replicas on any candidate's
 * host) moves with nearly every binding of the pod's group, and differs between a pod's filter and
 * its prioritize (which sends only the nodes that passed): for another such key the node is
 * re-scored from the same judgement, not decided again. Two keys are kept, the one used last stays.
 * A verdict does not depend on the key, so `UNSCORED` takes the decision used last.
 */
export class KeptNode<J, D> {
  private otherRelative: string | undefined;
  private otherDecision: D | undefined;
  private lastUsedOther = false;

  constructor(
    /** What the decision was scored from; undefined: no adjustment was read, the decision answers every key. */
    private readonly judgement: J | undefined,
    private relative: string,
    private decision: D,
  ) {}

  /** The decision for `relative`: kept, or `rescore`d from the judgement (and kept then). */
  decisionFor(relative: string, rescore: (judgement: J) => D): D {
    if (this.judgement === undefined) return this.decision;
    if (relative === UNSCORED) return this.lastUsedOther ? this.otherDecision! : this.decision;
    if (relative === this.relative) {
      this.lastUsedOther = false;
      return this.decision;
    }
    if (relative === this.otherRelative) {
      this.lastUsedOther = true;
      return this.otherDecision!;
    }
    const decision = rescore(this.judgement);
    if (this.lastUsedOther) {
      this.relative = relative;
      this.decision = decision;
    } else {
      this.otherRelative = relative;
      this.otherDecision = decision;
    }
    this.lastUsedOther = !this.lastUsedOther;
    return decision;
  }
}
