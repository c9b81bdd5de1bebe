import type { PodView } from "../model/cluster.js";

/** What the oversell ledger and the advice need from one node's pods, in one pass. */
export interface NamespaceSums {
  readonly pods: number;
  readonly podsScaled: number;
  /** Requests of the scaled pods as written (`hvx.io/original-requests`) and as they run. */
  readonly originalCpuMilli: number;
  readonly originalMemoryBytes: number;
  readonly scaledCpuMilli: number;
  readonly scaledMemoryBytes: number;
}

export interface PodListSummary {
  readonly pods: number;
  /** Sums of limits (a container without a limit already counts with its request). */
  readonly cpuLimitsMilli: number;
  readonly memoryLimitsBytes: number;
  readonly byNamespace: ReadonlyMap<string, NamespaceSums>;
  readonly bestEffort: readonly PodView[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** No request and no limit for CPU or memory in any container (the limit sum counts requests too). */
export function isBestEffort(p: PodView): boolean {
  return p.requests.cpuMilli === 0 && p.requests.memoryBytes === 0 && p.limits.cpuMilli === 0 && p.limits.memoryBytes === 0;
}

export function summarizePods(pods: readonly PodView[]): PodListSummary {
  let cpuLimitsMilli = 0;
  let memoryLimitsBytes = 0;
  const byNamespace = new Map<
    string,
    {
      pods: number;
      podsScaled: number;
      originalCpuMilli: number;
      originalMemoryBytes: number;
      scaledCpuMilli: number;
      scaledMemoryBytes: number;
    }
  >();
  const bestEffort: PodView[] = [];
  for (const p of pods) {
    cpuLimitsMilli += p.limits.cpuMilli;
    memoryLimitsBytes += p.limits.memoryBytes;
    if (isBestEffort(p)) bestEffort.push(p);
    let ns = byNamespace.get(p.namespace);
    if (!ns)
      byNamespace.set(
        p.namespace,
        (ns = { pods: 0, podsScaled: 0, originalCpuMilli: 0, originalMemoryBytes: 0, scaledCpuMilli: 0, scaledMemoryBytes: 0 }),
      );
    ns.pods += 1;
    if (!p.originalRequests) continue;
    ns.podsScaled += 1;
    ns.originalCpuMilli += p.originalRequests.cpuMilli;
    ns.originalMemoryBytes += p.originalRequests.memoryBytes;
    ns.scaledCpuMilli += p.requests.cpuMilli;
    ns.scaledMemoryBytes += p.requests.memoryBytes;
  }
  return { pods: pods.length, cpuLimitsMilli, memoryLimitsBytes, byNamespace, bestEffort };
}

/**
 * Summaries memoised by pod list identity. The informer's snapshots share the lists of the
 * nodes whose pods did not change, so after an event only the touched nodes are read again.
 * The caller owns the memo (one per view cache, or one per call): no module state.
 */
export class PodListSummaries {
  private readonly known = new WeakMap<readonly PodView[], PodListSummary>();
  private last:
    { readonly lists: ReadonlyMap<string, readonly PodView[]>; readonly totals: ReadonlyMap<string, NamespaceSums> } | undefined;

  /**
   * Sums per namespace over every node's list. From the previous call's answer, only the
   * lists that changed are taken out and put back in; counts, millicores and bytes are whole
   * numbers, so the sums equal a fresh addition.
   */
  byNamespace(lists: ReadonlyMap<string, readonly PodView[]>): ReadonlyMap<string, NamespaceSums> {
    const last = this.last;
    if (last?.lists === lists) return last.totals;
    const totals = new Map<string, Mutable<NamespaceSums>>();
    const add = (list: readonly PodView[], sign: 1 | -1) => {
      for (const [ns, n] of this.of(list).byNamespace) {
        let t = totals.get(ns);
        if (!t)
          totals.set(
            ns,
            (t = { pods: 0, podsScaled: 0, originalCpuMilli: 0, originalMemoryBytes: 0, scaledCpuMilli: 0, scaledMemoryBytes: 0 }),
          );
        t.pods += sign * n.pods;
        t.podsScaled += sign * n.podsScaled;
        t.originalCpuMilli += sign * n.originalCpuMilli;
        t.originalMemoryBytes += sign * n.originalMemoryBytes;
        t.scaledCpuMilli += sign * n.scaledCpuMilli;
        t.scaledMemoryBytes += sign * n.scaledMemoryBytes;
      }
    };
    if (last) {
      for (const [ns, t] of last.totals) totals.set(ns, { ...t });
      for (const [node, list] of lists) {
        const old = last.lists.get(node);
        if (old === list) continue;
        if (old) add(old, -1);
        add(list, 1);
      }
      for (const [node, old] of last.lists) if (!lists.has(node)) add(old, -1);
      for (const [ns, t] of totals) if (t.pods === 0) totals.delete(ns);
    } else {
      for (const list of lists.values()) add(list, 1);
    }
    this.last = { lists, totals };
    return totals;
  }

  has(pods: readonly PodView[]): boolean {
    return this.known.has(pods);
  }

  of(pods: readonly PodView[]): PodListSummary {
    let s = this.known.get(pods);
    if (!s) this.known.set(pods, (s = summarizePods(pods)));
    return s;
  }
}
