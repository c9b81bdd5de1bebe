import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { advise, type AdviceInput, type AdvicePolicy, type Finding, type VmReservation } from "../placement/advise.js";
import { assessHostAlone, type Heat } from "../placement/assess-host.js";
import { buildOversellLedger, type LedgerPolicy, type OversellLedger } from "../placement/oversell-ledger.js";
import { PodListSummaries } from "../placement/pod-list-summary.js";
import type { ThresholdPolicy } from "../placement/policy.js";
import { resolveNamespaceRatios, type OversellPolicy } from "../oversell/index.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface TwoLayerPolicy extends LedgerPolicy, AdvicePolicy {
  readonly thresholds: ThresholdPolicy;
  readonly admission: LedgerPolicy["admission"] & OversellPolicy & { readonly enabled: boolean };
}

/** What the views read; every function answers from memory (no network). */
export interface TwoLayerSources {
  readonly inventory: () => InventoryView;
  /** Undefined without the Kubernetes API (extender-only mode). */
  readonly cluster: () => ClusterView | undefined;
  readonly reservations: () => ReadonlyMap<string, VmReservation>;
  readonly memoryPainSince: (nowMs: number, windowMs: number) => ReadonlySet<string>;
  readonly hotSince: (nowMs: number, windowMs: number) => ReadonlySet<string>;
}

export const EMPTY_CLUSTER: ClusterView = { nodes: new Map(), podsByNode: new Map(), namespaces: new Map() };

export type OversellView = { readonly now: string; readonly kubernetes: boolean; readonly clusterSynced: boolean } & OversellLedger;
export interface AdviceView {
  readonly now: string;
  readonly findings: readonly Finding[];
}

/**
 * `GET /debug/oversell`, computed directly (no cache). The admin port serves it through
 * `TwoLayerViewCache`, which gives the same answer computed once per snapshot.
 */
export function buildOversellView(
  src: TwoLayerSources,
  policy: TwoLayerPolicy,
  nowMs: number,
  summaries = new PodListSummaries(),
): OversellView {
  const cluster = src.cluster();
  return oversellViewOf(cluster, buildOversellLedger(cluster ?? EMPTY_CLUSTER, src.inventory(), policy, summaries), nowMs);
}

export function oversellViewOf(cluster: ClusterView | undefined, ledger: OversellLedger, nowMs: number): OversellView {
  return {
    now: new Date(nowMs).toISOString(),
    kubernetes: cluster !== undefined,
    clusterSynced: cluster?.syncedAtMs !== undefined,
    ...ledger,
  };
}

/** Current heat per host; hosts with no opinion (stale or missing data, nothing rejected) are left out. */
export function heatByHost(inventory: InventoryView, thresholds: ThresholdPolicy, nowMs: number): Map<string, Heat> {
  const out = new Map<string, Heat>();
  for (const h of inventory.hosts.values()) {
    const a = assessHostAlone(h, thresholds, nowMs);
    if (a.staleness && a.rejections.length === 0) continue;
    out.set(h.id, a.heat);
  }
  return out;
}

/** What the advice reads besides the two snapshots, as of `nowMs`. */
export type AdviceContext = Pick<AdviceInput, "heat" | "reservations" | "memoryPainHosts" | "recentlyHotHosts">;

export function adviceContextOf(src: TwoLayerSources, inventory: InventoryView, policy: TwoLayerPolicy, nowMs: number): AdviceContext {
  return {
    heat: heatByHost(inventory, policy.thresholds, nowMs),
    reservations: src.reservations(),
    memoryPainHosts: src.memoryPainSince(nowMs, DAY_MS),
    recentlyHotHosts: src.hotSince(nowMs, HOUR_MS),
  };
}

/** `GET /debug/advice`, computed directly (no cache): findings, riskiest first. hvx acts on none of them. */
export function buildAdviceView(
  src: TwoLayerSources,
  policy: TwoLayerPolicy,
  nowMs: number,
  summaries = new PodListSummaries(),
): AdviceView {
  const cluster = src.cluster() ?? EMPTY_CLUSTER;
  const inventory = src.inventory();
  const ledger = buildOversellLedger(cluster, inventory, policy, summaries);
  return {
    now: new Date(nowMs).toISOString(),
    findings: findingsOf(cluster, inventory, ledger, adviceContextOf(src, inventory, policy, nowMs), policy, summaries),
  };
}

/** The advice for one pair of snapshots, its ledger and its context. Pure. */
export function findingsOf(
  cluster: ClusterView,
  inventory: InventoryView,
  ledger: OversellLedger,
  context: AdviceContext,
  policy: TwoLayerPolicy,
  summaries: PodListSummaries,
): Finding[] {
  return advise(adviceInputOf(cluster, inventory, ledger, context, policy), policy, summaries);
}

/** The advice's input: the namespaces with oversell on come from the policy, their labels and the ledger. */
export function adviceInputOf(
  cluster: ClusterView,
  inventory: InventoryView,
  ledger: OversellLedger,
  context: AdviceContext,
  policy: TwoLayerPolicy,
): AdviceInput {
  const oversold = new Set<string>();
  if (policy.admission.enabled) {
    for (const ns of cluster.namespaces.keys()) {
      if (policy.admission.excludeNamespaces.includes(ns)) continue;
      const r = resolveNamespaceRatios(policy.admission, ns, cluster.namespaces.get(ns));
      if (r.cpu.ratio > 1 || r.memory.ratio > 1) oversold.add(ns);
    }
  }
  for (const n of ledger.namespaces) if (n.podsScaled > 0) oversold.add(n.namespace);
  return { cluster, inventory, ...context, oversoldNamespaces: oversold };
}
