import type { HostForecast } from "./host-forecast.js";

/**
 * Core snapshot of the vSphere side, as the poller last saw it. Plain data: the
 * decision code (placement/, oversell/) and the simulator read only these types.
 *
 * Vocabulary: a *host* is an ESXi HostSystem (`host-21`); a *VM* is a VirtualMachine
 * (`vm-31`); a *sample* is one real-time performance sample (20 s) from vCenter.
 */

/** Host free-memory state as ESXi reports it (mem.state.latest). */
export type MemState = "high" | "clear" | "soft" | "hard" | "low";

/** Automation API connection states (upper case, as `GET /api/vcenter/host` spells them). */
export type ConnectionState = "CONNECTED" | "DISCONNECTED" | "NOT_RESPONDING";

/**
 * Derived host contention metrics. A field is undefined when vCenter did not return it (or
 * returned -1, its "no data"): unknown, never zero. Unknown values neither reject nor add
 * headroom (placement/score-host.ts).
 */
export interface HostMetrics {
  /** Time of the host's own performance sample (not of the poll, never its VMs'), epoch ms. */
  readonly sampledAtMs: number;
  /** CPU ready per vCPU, 0..100, averaged over the host's powered-on VMs weighted by vCPUs. */
  readonly cpuReadyPercent?: number;
  /** CPU co-stop per vCPU, 0..100, averaged over the host's powered-on VMs weighted by vCPUs. */
  readonly cpuCostopPercent?: number;
  /** Host CPU usage, 0..100 (cpu.usage.average decoded from fixed point). */
  readonly cpuUsagePercent?: number;
  /** Host memory usage, 0..100 (mem.usage.average decoded from fixed point). */
  readonly memUsagePercent?: number;
  /** Memory reclaimed by balloon drivers on this host, MiB. */
  readonly balloonMiB?: number;
  /** balloonMiB as a percentage of the host's physical memory, 0..100. */
  readonly balloonPercent?: number;
  /** Guest memory swapped out by the host, MiB. */
  readonly swappedMiB?: number;
  /** Swap-in rate, KB/s (active pain). */
  readonly swapInKBps?: number;
  readonly memState?: MemState;
}

export interface HostView {
  /** Managed object id, e.g. `host-21`. */
  readonly id: string;
  /** Display name, e.g. `esx-07.lab`. */
  readonly name: string;
  /** vSphere cluster name when known. */
  readonly clusterName?: string;
  /**
   * End of the poll cycle that last read this host (state, hardware, VM list), epoch ms.
   * The state rules (connection, maintenance) hold only while this is fresh.
   */
  readonly polledAtMs: number;
  readonly connectionState: ConnectionState;
  readonly inMaintenance: boolean;
  readonly cpuCores: number;
  readonly cpuMhzPerCore: number;
  readonly memoryMiB: number;
  /** Ids of the VMs placed on this host at the last poll. */
  readonly vmIds: readonly string[];
  /** Sum of powered-on VMs' vCPUs / physical cores (0 when cores unknown). */
  readonly vcpuPerPcpu: number;
  /** Sum of powered-on VMs' configured memory / physical memory (0 when unknown). */
  readonly vramPerPram: number;
  /** Undefined without a host-level sample: hvx then has no opinion on the host's metrics. */
  readonly metrics?: HostMetrics;
}

export interface VmMetrics {
  readonly sampledAtMs: number;
  /** CPU ready per vCPU, 0..100. */
  readonly cpuReadyPercent?: number;
  /** CPU co-stop per vCPU, 0..100. */
  readonly cpuCostopPercent?: number;
  readonly balloonMiB?: number;
  readonly swappedMiB?: number;
}

export interface VmView {
  /** Managed object id, e.g. `vm-31`. */
  readonly id: string;
  readonly name: string;
  /** Host the VM ran on at the last poll. */
  readonly hostId: string;
  /** `identity.bios_uuid`, lower case, when known. */
  readonly biosUuid?: string;
  /** Automation API power state: POWERED_ON | POWERED_OFF | SUSPENDED. */
  readonly powerState: string;
  readonly vcpus: number;
  readonly memoryMiB: number;
  readonly metrics?: VmMetrics;
}

/** Everything the poller knows, as of its last good poll. Never mutated after creation. */
export interface InventoryView {
  readonly hosts: ReadonlyMap<string, HostView>;
  readonly vms: ReadonlyMap<string, VmView>;
  /** End of the last successful poll cycle, epoch ms; undefined before the first one. */
  readonly polledAtMs?: number;
  /**
   * BIOS UUIDs (lower case) found in more than one vCenter (issue 11 §2: mid cross-vCenter
   * vMotion, or a clone): a node naming one maps to no VM, by any rule.
   */
  readonly ambiguousBiosUuids?: ReadonlySet<string>;
  /** Predicted load peaks by host id, computed once per poll (issue 9 §2); absent: no history, the present alone decides. */
  readonly forecasts?: ReadonlyMap<string, HostForecast>;
}

export const EMPTY_INVENTORY: InventoryView = Object.freeze({ hosts: new Map(), vms: new Map() });
