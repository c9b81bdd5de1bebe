import { performance } from "node:perf_hooks";
import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { adviseHosts, adviseNamespaces, byRisk, type Finding } from "../placement/advise.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import { buildOversellLedger, type OversellLedger } from "../placement/oversell-ledger.js";
import { PodListSummaries } from "../placement/pod-list-summary.js";
import {
  adviceContextOf,
  adviceInputOf,
  EMPTY_CLUSTER,
  oversellViewOf,
  type AdviceContext,
  type AdviceView,
  type OversellView,
  type TwoLayerPolicy,
  type TwoLayerSources,
} from "./two-layer-views.js";

export interface TwoLayerViewCacheDeps {
  readonly sources: TwoLayerSources;
  readonly policy: TwoLayerPolicy;
  /** Epoch ms: the views' `now` and the heat's sample ages. */
  readonly clock: () => number;
  /** Lets queued work (extender requests above all) run between slices. Default: `setImmediate`. */
  readonly yieldToLoop?: () => Promise<void>;
  /** Monotonic ms, for the slice budget. Default: `performance.now`. */
  readonly elapsed?: () => number;
  /** Longest stretch of pod lists read without yielding, ms. Default 4. */
  readonly sliceMs?: number;
}

const EMPTY_LEDGER: OversellLedger = {
  namespaces: [],
  hosts: [],
  totals: {
    namespacesScaled: 0,
    podsScaled: 0,
    original: { cpuMilli: 0, memoryBytes: 0 },
    scaled: { cpuMilli: 0, memoryBytes: 0 },
    hostsAboveCap: 0,
  },
};

/** What one computation answers: the two snapshots and the advice's context, compared by identity and content. */
interface SnapshotKey {
  readonly cluster: ClusterView | undefined;
  readonly inventory: InventoryView;
  readonly context: AdviceContext;
}

interface Computed {
  readonly key: SnapshotKey;
  readonly ledger: OversellLedger;
  readonly findings: readonly Finding[];
}

/**
 * `/debug/oversell` and `/debug/advice` computed once per snapshot (a poll, a change of the
 * informer cache, a change of heat, reservations or pain history), never per request:
 * - concurrent callers for the same snapshot share one computation; a newer snapshot arriving
 *   while one is computed waits for it and then is computed once for every caller that came in
 *   the meantime (one running, at most one queued: slow computations cannot pile up);
 * - the work runs after the calling request has returned to the event loop, in slices: the
 *   pod lists that changed since the last snapshot are read a few ms at a time, then the
 *   node-to-host mapping, the ledger, the host rules and the namespace rule of the advice,
 *   each in its own turn, so extender requests are served in between;
 * - pod list summaries are kept across snapshots (the informer shares unchanged lists), so a
 *   new snapshot costs the nodes whose pods changed plus a pass over nodes and hosts.
 * The answers equal `buildOversellView` / `buildAdviceView` on the same inputs.
 */
export class TwoLayerViewCache {
  private readonly summaries = new PodListSummaries();
  private readonly yieldToLoop: () => Promise<void>;
  private readonly elapsed: () => number;
  private readonly sliceMs: number;
  private done: Computed | undefined;
  private running: { readonly key: SnapshotKey; readonly result: Promise<Computed> } | undefined;
  private queued: Promise<Computed> | undefined;
  private count = 0;

  constructor(private readonly deps: TwoLayerViewCacheDeps) {
    this.yieldToLoop = deps.yieldToLoop ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.elapsed = deps.elapsed ?? (() => performance.now());
    this.sliceMs = deps.sliceMs ?? 4;
  }

  async oversell(): Promise<OversellView> {
    const nowMs = this.deps.clock();
    const c = await this.current(nowMs);
    return oversellViewOf(c.key.cluster, c.ledger, nowMs);
  }

  async advice(): Promise<AdviceView> {
    const nowMs = this.deps.clock();
    const c = await this.current(nowMs);
    return { now: new Date(nowMs).toISOString(), findings: c.findings };
  }

  /** Computes the current snapshot's views ahead of any request (after each poll). Never rejects. */
  refresh(): Promise<void> {
    return this.current(this.deps.clock()).then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * For `/metrics` scrapes, which never wait: the last ledger computed, at most one poll interval
   * old (`refresh` runs after every poll). A scrape starts a computation only before the first
   * (until then: empty, no series): with the cluster cache, every binding makes a new snapshot,
   * so a computation per scrape held the event loop for some 50 ms of turns between extender
   * requests at every scrape (docs/performance.md, "The thirteenth stop").
   */
  lastLedger(): OversellLedger {
    if (!this.done) void this.refresh();
    return this.done?.ledger ?? EMPTY_LEDGER;
  }

  /** How many computations ran (each snapshot once). */
  computations(): number {
    return this.count;
  }

  private current(nowMs: number): Promise<Computed> {
    const key = this.keyOf(nowMs);
    if (this.done && sameSnapshot(this.done.key, key)) return Promise.resolve(this.done);
    if (!this.running) return this.start(key);
    if (sameSnapshot(this.running.key, key)) return this.running.result;
    if (!this.queued) {
      const next = () => {
        this.queued = undefined;
        return this.current(this.deps.clock());
      };
      this.queued = this.running.result.then(next, next);
    }
    return this.queued;
  }

  private start(key: SnapshotKey): Promise<Computed> {
    const result = this.compute(key)
      .then((c) => (this.done = c))
      .finally(() => {
        this.running = undefined;
      });
    this.running = { key, result };
    return result;
  }

  private async compute(key: SnapshotKey): Promise<Computed> {
    this.count++;
    const cluster = key.cluster ?? EMPTY_CLUSTER;
    await this.yieldToLoop();
    let sliceStart = this.elapsed();
    for (const pods of cluster.podsByNode.values()) {
      if (this.summaries.has(pods)) continue;
      this.summaries.of(pods);
      if (this.elapsed() - sliceStart < this.sliceMs) continue;
      await this.yieldToLoop();
      sliceStart = this.elapsed();
    }
    await this.yieldToLoop();
    // which node is on which host: shared with the extender's decisions on the same pair of snapshots
    hostOccupancyOf(cluster, key.inventory, this.deps.policy.nodeMapping);
    await this.yieldToLoop();
    const ledger = buildOversellLedger(cluster, key.inventory, this.deps.policy, this.summaries);
    await this.yieldToLoop();
    const input = adviceInputOf(cluster, key.inventory, ledger, key.context, this.deps.policy);
    const hostFindings = adviseHosts(input, this.deps.policy, this.summaries);
    await this.yieldToLoop();
    const findings = byRisk([...hostFindings, ...adviseNamespaces(input, this.deps.policy, this.summaries)]);
    return { key, ledger, findings };
  }

  private keyOf(nowMs: number): SnapshotKey {
    const { sources, policy } = this.deps;
    const inventory = sources.inventory();
    const context = adviceContextOf(sources, inventory, policy, nowMs);
    return { cluster: sources.cluster(), inventory, context };
  }
}

function sameSnapshot(a: SnapshotKey, b: SnapshotKey): boolean {
  return a.cluster === b.cluster && a.inventory === b.inventory && sameContext(a.context, b.context);
}

/** Compared by content: the sources hand out fresh maps and sets, equal or not. */
function sameContext(a: AdviceContext, b: AdviceContext): boolean {
  return (
    sameEntries(a.heat, b.heat, (x, y) => x === y) &&
    sameEntries(
      a.reservations,
      b.reservations,
      (x, y) => x.memoryReservationMiB === y.memoryReservationMiB && x.cpuReservationMhz === y.cpuReservationMhz,
    ) &&
    sameMembers(a.memoryPainHosts, b.memoryPainHosts) &&
    sameMembers(a.recentlyHotHosts, b.recentlyHotHosts)
  );
}

function sameEntries<V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>, same: (x: V, y: V) => boolean): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined || !same(v, w)) return false;
  }
  return true;
}

function sameMembers(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const k of a) if (!b.has(k)) return false;
  return true;
}
