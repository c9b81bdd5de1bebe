/**
 * A node's kept decision with the judgement it was scored from. A rule whose adjustment reads the
 * request's candidates (`KubernetesRule.relativeKey`, e.g. the fewest replicas on any candidate's
 * host) moves with nearly every binding of the pod's group, and differs between a pod's filter and
 * its prioritize (which sends only the nodes that passed): for another such key the node is
 * re-scored from the same judgement, not decided again. Two keys are kept, the one used last stays.
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
