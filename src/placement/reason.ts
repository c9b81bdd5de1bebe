import type { WorkloadClass } from "../model/cluster.js";
import type { HostPool } from "./policy.js";
import type { HostMetricName, VmMetricName } from "./rules/index.js";

/**
 * Why a node was rejected or marked down. Reasons are data; `src/protocol/format-reason.ts`
 * turns them into the detailed one-line text of explain, /debug and the logs, and
 * `src/protocol/format-wire-reason.ts` into the short text kube-scheduler shows.
 */
export interface HostRef {
  readonly id: string;
  readonly name: string;
}
export interface VmRef {
  readonly id: string;
  readonly name: string;
}

export type { HostMetricName, VmMetricName };

/** Where in the day a predicted peak falls and how much history backs it. */
export interface PredictedAt {
  /** Start of the peak's bucket, minutes after midnight UTC. */
  readonly minuteOfDay: number;
  /** Days of history behind the percentile. */
  readonly days: number;
  readonly percentile: number;
}

export type Reason =
  | {
      readonly code: "host_metric";
      readonly host: HostRef;
      readonly metric: HostMetricName;
      readonly value: number | string;
      readonly op: ">=" | ">" | "in";
      readonly threshold: number | string;
      readonly unit: "%" | "MiB" | "KB/s" | "";
      readonly ageS: number;
      /** Bound pods whose demand the burst guard added to this value. */
      readonly pendingPods?: number;
      /** Set when the value is a predicted peak from the host's load profile, not a sample (issue 9 §2). */
      readonly predicted?: PredictedAt;
    }
  | {
      readonly code: "vm_metric";
      readonly host: HostRef;
      readonly vm: VmRef;
      readonly metric: VmMetricName;
      readonly value: number;
      readonly op: ">=" | ">";
      readonly threshold: number;
      readonly unit: "%" | "KB/s" | "MiB";
      readonly ageS: number;
    }
  | { readonly code: "host_maintenance"; readonly host: HostRef }
  | { readonly code: "host_connection"; readonly host: HostRef; readonly state: string }
  | { readonly code: "metrics_stale"; readonly host: HostRef; readonly ageS: number; readonly maxAgeS: number }
  | { readonly code: "metrics_missing"; readonly host: HostRef }
  /** The host's inventory entry (state, VM list) is older than the metric age limit: no opinion, state rules included. */
  | { readonly code: "inventory_stale"; readonly host: HostRef; readonly ageS: number; readonly maxAgeS: number }
  | { readonly code: "node_unmapped"; readonly node: string }
  | { readonly code: "vm_host_unknown"; readonly vm: VmRef; readonly hostId: string }
  | {
      readonly code: "limit_overcommit";
      readonly resource: "cpu" | "memory";
      /** Sum of limits on the node incl. the incoming pod: millicores or bytes. */
      readonly limits: number;
      readonly allocatable: number;
      readonly ratio: number;
      readonly max: number;
    }
  | {
      readonly code: "stacked_overcommit";
      readonly host: HostRef;
      readonly cpuLimitsMilli: number;
      readonly cores: number;
      readonly ratio: number;
      readonly max: number;
    }
  | {
      readonly code: "host_spread";
      readonly host: HostRef;
      readonly owner: string;
      readonly onHost: number;
      readonly leastOnCandidates: number;
      readonly maxSkew: number;
    }
  /** The pod's workload class is pinned to a host pool (`workloadClasses.pools`) this host is not in. */
  | {
      readonly code: "workload_pool";
      readonly host: HostRef;
      readonly workloadClass: WorkloadClass;
      /** The host's vSphere cluster when known. */
      readonly clusterName?: string;
      readonly pool: HostPool;
    }
  | {
      readonly code: "correlated_burst";
      readonly host: HostRef;
      /** The incoming pod's replica group (its correlated groups' demand counts too). */
      readonly owner: string;
      /** The correlated group's expected CPU on the host with the pod, MHz. */
      readonly groupMhz: number;
      /** Host capacity left after its non-Kubernetes load, MHz. */
      readonly roomMhz: number;
      readonly nonKubernetesMhz: number;
      readonly share: number;
      readonly max: number;
    };

export type ReasonCode = Reason["code"];

/** No reason: one frozen list that every verdict without one shares. */
export const NO_REASONS: readonly Reason[] = Object.freeze([]);
