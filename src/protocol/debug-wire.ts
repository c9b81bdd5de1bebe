import type { SourceStatus } from "../model/metrics-source.js";
import type { HostMetrics, HostView, VmMetrics, VmView } from "../model/inventory.js";
import type { Heat } from "../placement/assess-host.js";
import type { NodeMapping } from "../placement/explain-mapping.js";
import type { NodeMappingRule, ThresholdPolicy } from "../placement/policy.js";

/**
 * The admin port's `/debug/*` replies, as JSON: what operators, `hvx` subcommands, the UI and
 * dashboards read. Changing a field here is changing what they see.
 */

/** `unknown`: hvx has no opinion (missing or stale data) and no rule rejects. */
export type DebugHeat = Heat | "unknown";

/** `GET /debug/hosts`. */
export interface DebugHostsReply {
  /** ISO time of the reply. */
  readonly now: string;
  readonly polledAt: string | null;
  readonly source: SourceStatus | null;
  /** Why there is no vSphere data (the source is down), for people; null when there is some. */
  readonly sourceDown: string | null;
  readonly thresholds: ThresholdPolicy;
  readonly hosts: readonly DebugHostWire[];
}

export interface DebugHostWire {
  readonly id: string;
  readonly name: string;
  readonly cluster: string | null;
  readonly connectionState: HostView["connectionState"];
  readonly inMaintenance: boolean;
  readonly cpuCores: number;
  readonly cpuMhzPerCore: number;
  readonly memoryMiB: number;
  /** Rounded to 2 decimals. */
  readonly vcpuPerPcpu: number;
  readonly vramPerPram: number;
  readonly metrics: HostMetrics | null;
  readonly ageSeconds: number | null;
  readonly heat: DebugHeat;
  /** Why hvx has no opinion (formatted reason); null when it has one. */
  readonly stale: string | null;
  readonly rejections: readonly string[];
  readonly warnings: readonly string[];
  /** The last error reading this host while the inventory still lists it. */
  readonly lastError: NonNullable<SourceStatus["hostErrors"]>[string] | null;
  readonly prediction: DebugPredictionWire | null;
  readonly vms: readonly DebugVmWire[];
}

export interface DebugVmWire {
  readonly id: string;
  readonly name: string;
  readonly biosUuid: string | null;
  readonly powerState: VmView["powerState"];
  readonly vcpus: number;
  readonly memoryMiB: number;
  readonly metrics: VmMetrics | null;
  readonly ageSeconds: number | null;
  readonly heat: DebugHeat;
  readonly reasons: readonly string[];
}

/** A host's predicted peaks over `prediction.horizonHours`; null when prediction is off or the host has no history. */
export interface DebugPredictionWire {
  readonly horizonHours: number;
  readonly from: string;
  readonly peaks: Readonly<Record<string, { value: number; around: string; days: number; percentile: number }>>;
  readonly heat: DebugHeat;
  readonly reasons: readonly string[];
}

/** `GET /debug/nodes`. */
export interface DebugNodesReply {
  readonly source: string;
  readonly rules: readonly NodeMappingRule[];
  readonly mapped: number;
  readonly unmapped: number;
  readonly nodes: ReadonlyArray<NodeMapping & { readonly providerID: string | null; readonly systemUUID: string | null }>;
}
