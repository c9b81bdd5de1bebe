import type { PodView } from "../../../model/cluster.js";
import type { SpreadRule } from "../../host-spread.js";

/** What a Kubernetes-layer rule may read of the incoming pod and its request. */
export interface PodFacts {
  readonly pod: PodView;
  /** The pod's replica-spread rule; undefined: no replica group. */
  readonly spread: SpreadRule | undefined;
  /** Fewest replicas of the pod's owner on any candidate's host (computed on first use). */
  readonly leastReplicas: (rule: SpreadRule) => number;
}

/**
 * A rule of the Kubernetes layer (limits, stacked cap, spread, burst guard), declared once.
 * Decisions are kept per pod key and answered to every pod with the same key: the key is built
 * from every rule's `podKey`, so a rule that reads a new fact of the pod says so here or its
 * decisions would be answered to pods that differ in it.
 */
export interface KubernetesRule {
  readonly name: string;
  /** Everything of the pod and its request the rule's verdict and penalty depend on, as text ("" for nothing). */
  readonly podKey: (facts: PodFacts) => string;
}
