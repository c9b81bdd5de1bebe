import type { ClusterView, NodeView, PodView, ResourceAmounts } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { assessHostAlone } from "../placement/assess-host.js";
import { clusterViewFresh } from "../placement/cluster-freshness.js";
import { filterNodes, prioritizeNodes } from "../placement/filter-nodes.js";
import type { PlacementContext } from "../placement/decide-node.js";
import { hostOccupancyOf, hostsBackingNodes } from "../placement/host-occupancy.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { podMetaOf, whyNotEvictable } from "./evictable.js";
import type { HotSpell } from "./hot-spells.js";

export interface RebalancePolicy {
  /** A host must have been hot on a rebalance rule this long, without a break. */
  readonly hotForMinutes: number;
  readonly maxEvictionsPerCycle: number;
  readonly maxEvictionsPerHour: number;
  readonly evictLocalStorage: boolean;
  /** `admission.hotHostBrakePercent`: above this share of hot hosts there is nowhere cool to go. */
  readonly hotHostBrakePercent: number;
}

/** An eviction hvx made (or decided, in dry run) earlier. */
export interface PastEviction {
  readonly uid: string;
  readonly atMs: number;
}

export interface RebalanceInput {
  readonly inventory: InventoryView;
  readonly cluster: ClusterView;
  readonly placement: PlacementPolicy;
  readonly rebalance: RebalancePolicy;
  readonly spells: ReadonlyMap<string, HotSpell>;
  /** hvx's own evictions; those older than an hour are ignored. */
  readonly evicted: readonly PastEviction[];
  readonly nowMs: number;
  /**
   * A pod's CPU use in millicores, when known (the simulator knows it). Production has no
   * per-pod usage (no metrics-server dependency), so undefined, and the pod's CPU limit
   * stands in: what it may use above its request.
   */
  readonly cpuUseMilli?: (pod: PodView) => number | undefined;
}

export interface EvictionChoice {
  readonly pod: PodView;
  readonly node: string;
  readonly spell: HotSpell;
  readonly hotForSeconds: number;
  /** Where hvx would place the pod right now (a cool host's node), and its score there. */
  readonly target: { readonly node: string; readonly hostId: string; readonly score: number };
}

export type RebalanceHold =
  /** The cluster view is not synced, or older than `kubernetes.maxCacheAgeSeconds`: which pods run where is unknown. */
  | { readonly code: "cluster_stale" }
  | { readonly code: "brake"; readonly hotPercent: number; readonly brakePercent: number }
  | { readonly code: "hour_budget"; readonly evictedLastHour: number; readonly maxPerHour: number };

export interface RebalancePlan {
  readonly evictions: readonly EvictionChoice[];
  /** Why nothing at all was chosen this cycle, when a guard held the whole cluster. */
  readonly hold?: RebalanceHold;
  /** Hosts hot on a rebalance rule for at least `hotForMinutes`. */
  readonly chronicHosts: readonly string[];
}

const HOUR_MS = 3_600_000;

/**
 * The pods to evict this cycle (none while the cluster view is unsynced or stale), at most one
 * per chronically hot host, one per replica group and `maxEvictionsPerCycle` in all, within `maxEvictionsPerHour`; none when more than
 * `hotHostBrakePercent` of the hosts under the nodes are hot. On each host, evictable pods go
 * lowest priority first, then largest CPU use above request, and the first one that hvx would
 * place on a cool host right now (its own filter and score, with the pod's own requests, on a
 * node where the requests fit) is chosen. A pod hvx evicted in the last hour is never chosen.
 */
export function chooseEvictions(input: RebalanceInput): RebalancePlan {
  const { inventory, cluster, placement, rebalance, nowMs } = input;
  const minHotMs = rebalance.hotForMinutes * 60_000;
  const chronic = [...input.spells.values()]
    .filter((s) => nowMs - s.sinceMs >= minHotMs)
    .sort((a, b) => a.sinceMs - b.sinceMs || (a.hostId < b.hostId ? -1 : 1));
  const chronicHosts = chronic.map((s) => s.hostId);
  if (chronic.length === 0) return { evictions: [], chronicHosts };
  if (cluster.syncedAtMs === undefined || !clusterViewFresh(cluster, nowMs, placement))
    return { evictions: [], chronicHosts, hold: { code: "cluster_stale" } };

  const fleet = hostsBackingNodes(inventory, cluster, placement.nodeMapping);
  const hot = fleet.filter((h) => assessHostAlone(h, placement.thresholds, nowMs).heat === "hot").length;
  const hotPercent = fleet.length > 0 ? (hot / fleet.length) * 100 : 0;
  if (hotPercent > rebalance.hotHostBrakePercent)
    return {
      evictions: [],
      chronicHosts,
      hold: { code: "brake", hotPercent: Math.round(hotPercent * 10) / 10, brakePercent: rebalance.hotHostBrakePercent },
    };

  const recent = input.evicted.filter((e) => nowMs - e.atMs < HOUR_MS);
  const hourLeft = rebalance.maxEvictionsPerHour - recent.length;
  if (hourLeft <= 0)
    return {
      evictions: [],
      chronicHosts,
      hold: { code: "hour_budget", evictedLastHour: recent.length, maxPerHour: rebalance.maxEvictionsPerHour },
    };
  const budget = Math.min(rebalance.maxEvictionsPerCycle, hourLeft);
  const evictedUids = new Set(recent.map((e) => e.uid));

  const occupancy = hostOccupancyOf(cluster, inventory, placement.nodeMapping);
  const ctx: PlacementContext = { inventory, policy: placement, nowMs };
  const requested = requestedByNode(cluster);
  const groups = new Set<string>();
  const out: EvictionChoice[] = [];
  for (const spell of chronic) {
    if (out.length >= budget) break;
    const candidates = occupancy
      .podsOnHost(spell.hostId)
      .filter(
        (p) =>
          p.nodeName !== undefined &&
          !evictedUids.has(p.uid) &&
          !groups.has(groupOf(p)) &&
          whyNotEvictable(p, placement.exempt, rebalance.evictLocalStorage) === undefined,
      );
    for (const pod of rankForRebalance(candidates, input.cpuUseMilli)) {
      const target = coolTarget(pod, spell.hostId, cluster, occupancy.hostOfNode, requested, ctx);
      if (!target) continue;
      out.push({ pod, node: pod.nodeName!, spell, hotForSeconds: Math.round((nowMs - spell.sinceMs) / 1000), target });
      groups.add(groupOf(pod));
      break;
    }
  }
  return { evictions: out, chronicHosts };
}

/** Lowest priority first, then the largest CPU use above request; namespace/name breaks ties. */
export function rankForRebalance(pods: readonly PodView[], cpuUseMilli?: (pod: PodView) => number | undefined): PodView[] {
  const excess = new Map(pods.map((p) => [p, (cpuUseMilli?.(p) ?? p.limits.cpuMilli) - p.requests.cpuMilli]));
  return [...pods].sort((a, b) => {
    const pa = a.eviction?.priority ?? 0;
    const pb = b.eviction?.priority ?? 0;
    if (pa !== pb) return pa - pb;
    const d = excess.get(b)! - excess.get(a)!;
    if (d !== 0) return d;
    const ka = `${a.namespace}/${a.name}`;
    const kb = `${b.namespace}/${b.name}`;
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

function groupOf(pod: PodView): string {
  return pod.ownerKey ?? `pod/${pod.uid}`;
}

/**
 * The node hvx would send the pod to right now: among the nodes off its host where its
 * requests fit, those hvx's filter passes on a cool host with an opinion (fresh data), the
 * best by hvx's score (then by name). Undefined: nowhere cool, so the pod stays.
 */
function coolTarget(
  pod: PodView,
  fromHostId: string,
  cluster: ClusterView,
  hostOfNode: ReadonlyMap<string, string>,
  requested: ReadonlyMap<string, ResourceAmounts>,
  base: PlacementContext,
): EvictionChoice["target"] | undefined {
  const fits: NodeView[] = [];
  for (const node of cluster.nodes.values()) {
    const hostId = hostOfNode.get(node.name);
    if (hostId === undefined || hostId === fromHostId) continue;
    // kube-scheduler's NodeResourcesFit on requests (CPU and memory).
    const used = requested.get(node.name);
    if (
      (used?.cpuMilli ?? 0) + pod.requests.cpuMilli > node.allocatable.cpuMilli ||
      (used?.memoryBytes ?? 0) + pod.requests.memoryBytes > node.allocatable.memoryBytes
    )
      continue;
    fits.push(node);
  }
  if (fits.length === 0) return undefined;
  const { nodeName: _from, boundAtMs: _bound, ...unbound } = pod;
  const ctx: PlacementContext = { ...base, cluster: { view: cluster, pod: unbound } };
  const meta = podMetaOf(pod);
  const outcome = filterNodes(meta, fits, ctx);
  const byName = new Map(fits.map((n) => [n.name, n]));
  const cool = outcome.decisions
    .filter((d) => d.verdict === "pass" && !d.noOpinion && d.assessment?.heat === "cool")
    .map((d) => byName.get(d.node)!);
  if (cool.length === 0) return undefined;
  const scores = prioritizeNodes(meta, cool, ctx);
  let best = scores[0]!;
  for (const s of scores) if (s.score > best.score || (s.score === best.score && s.node < best.node)) best = s;
  return { node: best.node, hostId: hostOfNode.get(best.node)!, score: best.score };
}

/** Requests of the pods bound to each node, summed once per cycle. */
function requestedByNode(cluster: ClusterView): Map<string, ResourceAmounts> {
  const out = new Map<string, ResourceAmounts>();
  for (const [node, pods] of cluster.podsByNode) {
    let cpuMilli = 0;
    let memoryBytes = 0;
    for (const p of pods) {
      cpuMilli += p.requests.cpuMilli;
      memoryBytes += p.requests.memoryBytes;
    }
    out.set(node, { cpuMilli, memoryBytes });
  }
  return out;
}
