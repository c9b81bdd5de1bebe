import type { ClusterView } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { advise, type AdvicePolicy, type Finding, type VmReservation } from "../placement/advise.js";
import { assessHostAlone, type Heat } from "../placement/assess-host.js";
import { buildOversellLedger, type LedgerPolicy, type OversellLedger } from "../placement/oversell-ledger.js";
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

const EMPTY_CLUSTER: ClusterView = { nodes: new Map(), podsByNode: new Map(), namespaces: new Map() };
const ledgerCache = new WeakMap<ClusterView, WeakMap<InventoryView, OversellLedger>>();

/**
 * The ledger of one snapshot pair, memoised: both snapshots are immutable, so the UI's
 * refreshes, `/metrics` scrapes and `/debug/oversell` share one computation per poll.
 */
export function ledgerOf(view: ClusterView, inventory: InventoryView, policy: LedgerPolicy): OversellLedger {
  let byInv = ledgerCache.get(view);
  if (!byInv) ledgerCache.set(view, (byInv = new WeakMap()));
  let ledger = byInv.get(inventory);
  if (!ledger) byInv.set(inventory, (ledger = buildOversellLedger(view, inventory, policy)));
  return ledger;
}

/** `GET /debug/oversell`. */
export function buildOversellView(src: TwoLayerSources, policy: TwoLayerPolicy, nowMs: number) {
  const cluster = src.cluster();
  const inventory = src.inventory();
  const ledger = ledgerOf(cluster ?? EMPTY_CLUSTER, inventory, policy);
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

/** `GET /debug/advice`: findings, riskiest first. hvx acts on none of them. */
export function buildAdviceView(src: TwoLayerSources, policy: TwoLayerPolicy, nowMs: number): { now: string; findings: Finding[] } {
  const cluster = src.cluster() ?? EMPTY_CLUSTER;
  const inventory = src.inventory();
  const oversold = new Set<string>();
  if (policy.admission.enabled) {
    const namespaces = new Set<string>(cluster.namespaces.keys());
    for (const ns of namespaces) {
      if (policy.admission.excludeNamespaces.includes(ns)) continue;
      const r = resolveNamespaceRatios(policy.admission, ns, cluster.namespaces.get(ns));
      if (r.cpu.ratio > 1 || r.memory.ratio > 1) oversold.add(ns);
    }
  }
  for (const n of ledgerOf(cluster, inventory, policy).namespaces) if (n.podsScaled > 0) oversold.add(n.namespace);
  const findings = advise(
    {
      cluster,
      inventory,
      heat: heatByHost(inventory, policy.thresholds, nowMs),
      reservations: src.reservations(),
      memoryPainHosts: src.memoryPainSince(nowMs, DAY_MS),
      recentlyHotHosts: src.hotSince(nowMs, HOUR_MS),
      oversoldNamespaces: oversold,
    },
    policy,
  );
  return { now: new Date(nowMs).toISOString(), findings };
}
