import { burstGuard } from "./burst-guard.js";
import { correlatedBurst } from "./correlated-burst.js";
import type { KubernetesRule } from "./kubernetes-rule.js";
import { nodeLimits } from "./node-limits.js";
import { replicaSpread } from "./replica-spread.js";
import { stackedCap } from "./stacked-cap.js";
import { workloadClassRule } from "./workload-class.js";

export type { CandidateMeasure, HostJudgement, KubernetesRule, PodFacts, RuleRequest, ScoreAdjustment } from "./kubernetes-rule.js";

/** The Kubernetes-layer rules, applied with a fresh cluster view to pods that are not fully exempt. */
export const KUBERNETES_RULES: readonly KubernetesRule[] = [
  nodeLimits,
  stackedCap,
  replicaSpread,
  workloadClassRule,
  burstGuard,
  correlatedBurst,
];
