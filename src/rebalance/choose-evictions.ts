import type { ClusterView, NodeView, PodView, ResourceAmounts } from "../model/cluster.js";
import type { InventoryView } from "../model/inventory.js";
import { assessHostAlone } from "../placement/assess-host.js";
import { clusterViewFresh } from "../placement/cluster-freshness.js";
import { filterNodes, prioritizeNodes } from "../placement/filter-nodes.js";
import type { PlacementContext } from "../placement/decide-node.js";
import { hostOccupancyOf, hostsBackingNodes } from "../placement/host-occupancy.js";
import type { PlacementPolicy } from "../placement/policy.js";
import { podMetaOf, whyNotEvictable } from "./evictable.js";
import { evictionsLeftThisHour, type BudgetHold } from "./eviction-budget.js";
import type { HotSpell } from "./hot-spells.js";
import { EMPTY_SPELL_HISTORY, expectedRemainingSeconds, worthEvicting, type SpellHistory } from "./spell-cost.js";
import type { VmSpell } from "./vm-spells.js";

export interface RebalancePolicy {
  /** A host must have been hot on a rebalance rule this long, without a break. */
  readonly hotForMinutes: number;
  readonly maxEvictionsPerCycle: number;
  readonly maxEvictionsPerHour: number;
  /** Issue 26's rate bound: evictions per 100 pod-hours, applied to each rolling hour (eviction-budget.ts). */
  readonly maxEvictionsPer100PodHours: number;
  readonly evictLocalStorage: boolean;
  /** `admission.hotHostBrakePercent`: above this share of hot hosts there is nowhere cool to go. */
  readonly hotHostBrakePercent: number;
  /** What an eviction costs the pod: seconds until its replacement runs (the cost model). */
  readonly restartSeconds: number;
  /** Shortest spell, host or node VM, the cost model weighs. */
  readonly minSpellSeconds: number;
  /** A node VM with its own CPU ready per vCPU at or above this is in a spell (vm-spells.ts). */
  readonly vmReadyPercent: number;
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
  /** Node VMs' own CPU ready spells, by VM id; absent: hosts only. */
  readonly vmSpells?: ReadonlyMap<string, VmSpell>;
  /** Durations of ended spells, the cost model's evidence; absent: chronic spells only. */
  readonly history?: SpellHistory;
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
  readonly spell: HotSpell | VmSpell;
  readonly hotForSeconds: number;
  /** Set when the cost model chose the spell (shorter than chronic): its expected further seconds. */
  readonly expectedRemainingSeconds?: number;
  /** Where hvx would place the pod right now (a cool host's node), and its score there. */
  readonly target: { readonly node: string; readonly hostId: string; readonly score: number };
}

/**
 * Why every eviction waits. `cluster_stale`: the cluster view is not synced, or older than
 * `kubernetes.maxCacheAgeSeconds` (which pods run where is unknown); `brake`: too many hosts hot;
 * the budgets: eviction-budget.ts.
 */
export type RebalanceHold =
  { readonly code: "cluster_stale" } | { readonly code: "brake"; readonly hotPercent: number; readonly brakePercent: number } | BudgetHold;

export interface RebalancePlan {
  readonly evictions: readonly EvictionChoice[];
  /** Why nothing at all was chosen this cycle, when a guard held the whole cluster. */
  readonly hold?: RebalanceHold;
  /** Hosts hot on a rebalance rule for at least `hotForMinutes`. */
  readonly chronicHosts: readonly string[];
}

const HOUR_MS = 3_600_000;

/** A spell the rebalancer acts on this cycle. */
interface Acted {
  readonly spell: HotSpell | VmSpell;
  readonly expectedRemainingSeconds?: number;
}

/**
 * The pods to evict this cycle (none while the cluster view is unsynced or stale), at most one
 * per host, one per replica group and `maxEvictionsPerCycle` in all, within the rolling hour's
 * budget (the lower of `maxEvictionsPerHour` and `maxEvictionsPer100PodHours` of the pods running
 * on the nodes hvx maps to a host); none when more than `hotHostBrakePercent` of the hosts under
 * the nodes are hot. Spells acted on: first the
 * chronic ones (a host's or a node VM's, hot for `hotForMinutes`), oldest first; then those
 * of at least `minSpellSeconds` the cost model finds worth an eviction (spell-cost.ts), the
 * longest expected remainder first. Candidates are the pods of the host's node VMs (a host
 * spell) or of the one node VM; they go lowest priority first, then largest CPU use above
 * request, and the first one that hvx would place on a cool host off the spell's host right
 * now (its own filter and score, with the pod's own requests, on a node where the requests
 * fit) is chosen. A pod hvx evicted in the last hour is never chosen.
 */
export function chooseEvictions(input: RebalanceInput): RebalancePlan {
  const { inventory, cluster, placement, rebalance, nowMs } = input;
  const minHotMs = rebalance.hotForMinutes * 60_000;
  const chronic = [...input.spells.values()].filter((s) => nowMs - s.sinceMs >= minHotMs).sort(byAge);
  const chronicHosts = chronic.map((s) => s.hostId);
  const acted = spellsToActOn(input, chronic);
  if (acted.length === 0) return { evictions: [], chronicHosts };
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

  const occupancy = hostOccupancyOf(cluster, inventory, placement.nodeMapping);
  const recent = input.evicted.filter((e) => nowMs - e.atMs < HOUR_MS);
  const hour = evictionsLeftThisHour(rebalance, recent.length, governedPods(cluster, occupancy.hostOfNode));
  if ("hold" in hour) return { evictions: [], chronicHosts, hold: hour.hold };
  const budget = Math.min(rebalance.maxEvictionsPerCycle, hour.left);
  const evictedUids = new Set(recent.map((e) => e.uid));

  const ctx: PlacementContext = { inventory, policy: placement, nowMs };
  const requested = requestedByNode(cluster);
  const nodeOfVm = new Map([...occupancy.vmOfNode].map(([node, vm]) => [vm.id, node]));
  const groups = new Set<string>();
  const hostsDone = new Set<string>();
  const out: EvictionChoice[] = [];
  for (const { spell, expectedRemainingSeconds } of acted) {
    if (out.length >= budget) break;
    if (hostsDone.has(spell.hostId)) continue;
    const onSpell = "vmId" in spell ? podsOfNode(cluster, nodeOfVm.get(spell.vmId)) : occupancy.podsOnHost(spell.hostId);
    const candidates = onSpell.filter(
      (p) =>
        p.nodeName !== undefined &&
        !evictedUids.has(p.uid) &&
        !groups.has(groupOf(p)) &&
        whyNotEvictable(p, placement.exempt, rebalance.evictLocalStorage) === undefined,
    );
    for (const pod of rankForRebalance(candidates, input.cpuUseMilli)) {
      const target = coolTarget(pod, spell.hostId, cluster, occupancy.hostOfNode, requested, ctx);
      if (!target) continue;
      const hotForSeconds = Math.round((nowMs - spell.sinceMs) / 1000);
      out.push({
        pod,
        node: pod.nodeName!,
        spell,
        hotForSeconds,
        target,
        ...(expectedRemainingSeconds !== undefined ? { expectedRemainingSeconds } : {}),
      });
      groups.add(groupOf(pod));
      hostsDone.add(spell.hostId);
      break;
    }
  }
  return { evictions: out, chronicHosts };
}

/**
 * The chronic host spells, then every other spell (host or node VM) hot for at least
 * `minSpellSeconds`: chronic as well when hot for `hotForMinutes`, else kept only when
 * `worthEvicting` says its expected remainder (from the ended spells of its kind) beats the
 * restart; the chronic ones oldest first, the others longest expected remainder first.
 */
function spellsToActOn(input: RebalanceInput, chronicHosts: readonly HotSpell[]): Acted[] {
  const { rebalance, nowMs } = input;
  const history = input.history ?? EMPTY_SPELL_HISTORY;
  const chronicMs = rebalance.hotForMinutes * 60_000;
  const chronicVms: VmSpell[] = [];
  const weighed: Acted[] = [];
  const weigh = (spell: HotSpell | VmSpell, historyS: readonly number[]) => {
    const elapsedMs = nowMs - spell.sinceMs;
    if (elapsedMs < rebalance.minSpellSeconds * 1000) return;
    const remainingS = expectedRemainingSeconds(historyS, elapsedMs / 1000);
    if (worthEvicting(remainingS, rebalance.restartSeconds)) weighed.push({ spell, expectedRemainingSeconds: Math.round(remainingS!) });
  };
  for (const s of input.spells.values()) if (nowMs - s.sinceMs < chronicMs) weigh(s, history.hostSeconds);
  for (const s of input.vmSpells?.values() ?? []) {
    if (nowMs - s.sinceMs >= chronicMs) chronicVms.push(s);
    else weigh(s, history.vmSeconds);
  }
  weighed.sort((a, b) => b.expectedRemainingSeconds! - a.expectedRemainingSeconds! || byAge(a.spell, b.spell));
  return [...[...chronicHosts, ...chronicVms.sort(byAge)].map((spell) => ({ spell })), ...weighed];
}

/** Oldest first; ties by VM, then host id (deterministic). */
function byAge(a: HotSpell | VmSpell, b: HotSpell | VmSpell): number {
  const ka = "vmId" in a ? a.vmId : a.hostId;
  const kb = "vmId" in b ? b.vmId : b.hostId;
  return a.sinceMs - b.sinceMs || (ka < kb ? -1 : ka > kb ? 1 : 0);
}

/** Running pods on the nodes hvx maps to an ESXi host: those it may move, the pod-hours its budget is measured against. */
function governedPods(cluster: ClusterView, hostOfNode: ReadonlyMap<string, string>): number {
  let count = 0;
  for (const [node, pods] of cluster.podsByNode) if (hostOfNode.has(node)) count += pods.length;
  return count;
}

function podsOfNode(cluster: ClusterView, node: string | undefined): readonly PodView[] {
  return (node !== undefined && cluster.podsByNode.get(node)) || [];
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
