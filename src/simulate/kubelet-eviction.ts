/**
 * Kubelet's order for evicting pods under node memory pressure (rankMemoryPressure):
 * pods whose usage exceeds their request first, then lower priority first, then larger
 * usage above request first. Pod index breaks the last tie, for determinism.
 */
export interface EvictionCandidate {
  readonly pod: number;
  readonly usageMiB: number;
  /** The request kubelet sees (after any oversell scaling). */
  readonly requestMiB: number;
  readonly priority: number;
}

export function rankForEviction(candidates: readonly EvictionCandidate[]): EvictionCandidate[] {
  return [...candidates].sort((a, b) => {
    const aOver = a.usageMiB > a.requestMiB ? 1 : 0;
    const bOver = b.usageMiB > b.requestMiB ? 1 : 0;
    if (aOver !== bOver) return bOver - aOver;
    if (a.priority !== b.priority) return a.priority - b.priority;
    const byExcess = b.usageMiB - b.requestMiB - (a.usageMiB - a.requestMiB);
    if (byExcess !== 0) return byExcess;
    return a.pod - b.pod;
  });
}

/**
 * kubelet's evictionMonitoringPeriod (pkg/kubelet/kubelet.go): the eviction manager
 * synchronises every 10 s and kills at most one pod per synchronisation, then waits for it
 * to be cleaned up before the next one.
 */
export const EVICTION_MONITORING_SECONDS = 10;

/**
 * Pods kubelet evicts over `rounds` eviction-manager synchronisations: in each, if
 * memory.available is below the hard threshold, the first pod in rank order goes and its
 * memory becomes available for the next round.
 */
export function choosePodsToEvict(
  candidates: readonly EvictionCandidate[],
  availableMiB: number,
  thresholdMiB: number,
  rounds = Infinity,
): number[] {
  if (availableMiB >= thresholdMiB) return [];
  const out: number[] = [];
  let available = availableMiB;
  for (const c of rankForEviction(candidates)) {
    if (available >= thresholdMiB || out.length >= rounds) break;
    out.push(c.pod);
    available += c.usageMiB;
  }
  return out;
}
