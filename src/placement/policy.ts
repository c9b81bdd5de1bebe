/**
 * What the placement decisions need from the configuration. The validated `Config`
 * satisfies this structurally; the core never reads the config module itself.
 */
export interface ThresholdPolicy {
  /** Reject at or above this CPU ready % per vCPU (host or the node's VM). */
  readonly cpuReadyPercent: number;
  /** "warm" at or above this ready %; scores drop clearly. */
  readonly cpuReadyWarnPercent: number;
  readonly hostCpuUsagePercent: number;
  readonly hostMemoryUsagePercent: number;
  /** Host balloon as % of host memory. */
  readonly balloonPercent: number;
  readonly swapInKBps: number;
  readonly maxMetricAgeSeconds: number;
}

export interface ExemptPolicy {
  readonly namespaces: readonly string[];
  readonly priorityClassNames: readonly string[];
}

export type NodeMappingRule = "providerID" | "systemUUID" | "name";

export interface PlacementPolicy {
  readonly thresholds: ThresholdPolicy;
  /** `pass`: unknown or stale data means no opinion; `reject`: it is a rejection. */
  readonly staleMetrics: "pass" | "reject";
  readonly exempt: ExemptPolicy;
  readonly scoring: { readonly unknownScore: number };
  readonly nodeMapping: readonly NodeMappingRule[];
}

/** Warm at this share of a rejection threshold (DESIGN: "within 10 % of another threshold"). */
export const WARM_FRACTION = 0.9;
