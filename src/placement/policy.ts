import type { CorrelationPolicy } from "./correlated-burst-cap.js";
import type { RuleThresholds } from "./rules/index.js";
import type { WorkloadClassification } from "./workload-class.js";

/**
 * What the placement decisions need from the configuration. Each metric rule declares its own
 * thresholds (`rules/*.ts`). The validated `Config` satisfies this structurally; the core never reads the config module itself.
 */
export interface ThresholdPolicy extends RuleThresholds {
  readonly maxMetricAgeSeconds: number;
}

export interface ExemptPolicy {
  readonly namespaces: readonly string[];
  readonly priorityClassNames: readonly string[];
  /** Namespaces (`*` wildcards) where `hvx.io/exempt: "true"` counts; undefined: all; `[]`: none. */
  readonly annotationNamespaces?: readonly string[];
}

export type NodeMappingRule = "providerID" | "systemUUID" | "name";

/** Cluster-aware rules (they apply only when the Kubernetes view is present). */
export interface BurstGuardPolicy {
  readonly enabled: boolean;
  /** A bound pod's demand is projected until a sample taken this long after binding arrives. */
  readonly settleSeconds: number;
}

export interface LimitsPolicy {
  /** Per node: sum(cpu limits) / allocatable cpu, incoming pod included. */
  readonly maxCpuOvercommit: number;
  readonly maxMemoryOvercommit: number;
  /** Per ESXi host: cpu limits of every pod on its node VMs / physical cores. */
  readonly maxStackedCpuOvercommit: number;
}

/** The Kubernetes view itself. */
export interface KubernetesLayerPolicy {
  /** A cluster view not heard from for longer than this: limits, stacked cap and spread have no opinion. */
  readonly maxCacheAgeSeconds: number;
}

/** Predicted heat (issue 9 §2): score by the worse of the present and the host's predicted peak. */
export interface PredictionPolicy {
  readonly enabled: boolean;
  /** How far ahead a long-lived pod looks; a short-lived one looks as far as its deadline. */
  readonly horizonHours: number;
  /** true: a predicted peak over a rejection threshold rejects; false: it makes the host at best warm. */
  readonly filter: boolean;
}

/** ESXi hosts a workload class is pinned to: a host belongs when every given criterion holds. */
export interface HostPool {
  /** vSphere cluster names; [] : any cluster. */
  readonly clusters: readonly string[];
  /** Host name patterns (`*`: any run of characters); [] : any name. */
  readonly hostNames: readonly string[];
}

/** Online and batch pods on different ESXi hosts (rules/kubernetes/workload-class.ts). */
export interface WorkloadClassPolicy extends WorkloadClassification {
  /** Points off a host for a classed pod, times the other class's share of the host's expected pod CPU; 0: off. */
  readonly mixPenalty: number;
  /** Hard pools: a pod of the class is rejected on hosts outside its pool. */
  readonly pools: { readonly online?: HostPool; readonly batch?: HostPool };
}

export interface PlacementPolicy {
  readonly thresholds: ThresholdPolicy;
  /** `pass`: unknown or stale data means no opinion; `reject`: it is a rejection. */
  readonly staleMetrics: "pass" | "reject";
  readonly exempt: ExemptPolicy;
  readonly scoring: {
    readonly unknownScore: number;
    /** Host spread: score points per replica above the least loaded candidate host, and their cap. */
    readonly spreadPenaltyPerReplica: number;
    readonly maxSpreadPenalty: number;
  };
  readonly nodeMapping: readonly NodeMappingRule[];
  readonly burstGuard: BurstGuardPolicy;
  readonly limits: LimitsPolicy;
  /** Undefined: `DEFAULT_MAX_CACHE_AGE_SECONDS`. */
  readonly kubernetes?: KubernetesLayerPolicy;
  /** Undefined: no prediction (the present alone decides). */
  readonly prediction?: PredictionPolicy;
  /** Undefined: `DEFAULT_WORKLOAD_CLASSES` (the mixing penalty on, no pools). */
  readonly workloadClasses?: WorkloadClassPolicy;
  /** Undefined: no correlated-burst cap. */
  readonly correlation?: CorrelationPolicy;
}

/** Warm at this share of a rejection threshold (DESIGN: "within 10 % of another threshold"). */
export const WARM_FRACTION = 0.9;
