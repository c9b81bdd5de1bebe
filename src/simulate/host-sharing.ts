/**
 * CPU sharing on one ESXi host: proportional share. When the VMs' total demand D (MHz)
 * exceeds the host's capacity C = cores x MHz per core, every VM gets the same share
 * C / D of its demand and waits, ready to run, for the rest:
 *
 *   share        = min(1, C / D)
 *   delivered_v  = share x demand_v                                  (MHz)
 *   ready_ms_v   = (1 - share) x demand_v / mhzPerCore x interval_ms   (vCPU-ms per sample,
 *                  summed over the VM's vCPUs, as cpu.ready.summation reports it)
 *   ready%_v     = ready_ms_v / (interval_ms x vCPUs_v) x 100           (per vCPU)
 *
 * Below capacity the model has no ready time at all (real ESXi shows a little from
 * co-scheduling and wake-up latency); it therefore understates contention, never overstates it.
 */

/** Share of its demand each VM receives, 0..1. */
export function cpuShare(capacityMhz: number, demandMhz: number): number {
  if (demandMhz <= capacityMhz || demandMhz <= 0) return 1;
  return capacityMhz / demandMhz;
}

/** cpu.ready.summation for one VM: ms of ready time per sample over all its vCPUs. */
export function readyMsPerSample(demandMhz: number, share: number, mhzPerCore: number, intervalMs: number): number {
  if (mhzPerCore <= 0) return 0;
  return (1 - share) * (demandMhz / mhzPerCore) * intervalMs;
}
