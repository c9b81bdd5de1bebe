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
 * Pods to evict so that memory.available gets back to the hard threshold:
 * available = capacity - used; evict in rank order until available >= thresholdMiB.
 */
export function choosePodsToEvict(candidates: readonly EvictionCandidate[], availableMiB: number, thresholdMiB: number): number[] {
  if (availableMiB >= thresholdMiB) return [];
  const out: number[] = [];
  let available = availableMiB;
  for (const c of rankForEviction(candidates)) {
    if (available >= thresholdMiB) break;
    out.push(c.pod);
    available += c.usageMiB;
  }
  return out;
}
