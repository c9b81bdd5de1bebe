import type { HostView } from "../model/inventory.js";

/** Overcommit of the ESXi layer across the hosts backing the cluster. */
export interface FleetView {
  readonly hostCount: number;
  /** Sum of powered-on vCPUs / sum of physical cores; 0 when no host reports cores. */
  readonly vcpuPerPcpu: number;
  /** Sum of powered-on VM memory / sum of physical memory; 0 when no host reports memory. */
  readonly vramPerPram: number;
  readonly hotHostCount: number;
  /** hotHostCount / hostCount x 100, 0..100; 0 without hosts. */
  readonly hotPercent: number;
  /**
   * True when this is the last view built from fresh host data, served because the current
   * data is missing or stale (the cap and the brake never fall away with vCenter).
   */
  readonly lastKnown?: boolean;
}

/**
 * Fleet-wide ratios as sums, not averages of ratios, so a big host weighs more than a
 * small one: vCPU:pCPU = sum(host.vcpuPerPcpu x host.cpuCores) / sum(host.cpuCores).
 */
export function fleetView(hosts: readonly HostView[], isHot: (h: HostView) => boolean): FleetView {
  let cores = 0;
  let vcpus = 0;
  let pramMiB = 0;
  let vramMiB = 0;
  let hot = 0;
  for (const h of hosts) {
    if (h.cpuCores > 0 && Number.isFinite(h.vcpuPerPcpu)) {
      cores += h.cpuCores;
      vcpus += h.vcpuPerPcpu * h.cpuCores;
    }
    if (h.memoryMiB > 0 && Number.isFinite(h.vramPerPram)) {
      pramMiB += h.memoryMiB;
      vramMiB += h.vramPerPram * h.memoryMiB;
    }
    if (isHot(h)) hot += 1;
  }
  return {
    hostCount: hosts.length,
    vcpuPerPcpu: cores > 0 ? vcpus / cores : 0,
    vramPerPram: pramMiB > 0 ? vramMiB / pramMiB : 0,
    hotHostCount: hot,
    hotPercent: hosts.length > 0 ? (hot / hosts.length) * 100 : 0,
  };
}
