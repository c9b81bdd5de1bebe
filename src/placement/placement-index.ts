import type { ClusterView, NodeView, PodView } from "../model/cluster.js";
import { OverlayMap } from "../model/overlay-map.js";
import type { HostView, InventoryView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import { ageSeconds, judgeHostAlone, judgeVm, type HostAssessment } from "./assess-host.js";
import { NO_PENDING, patchedPending, pendingDemand, projectHost, sumPending, type PendingDemand } from "./burst-guard.js";
import { advanced, buildHostOccupancy, remapped, reoccupy, type HostOccupancy } from "./host-occupancy.js";
import { mapNodeToVm, vmIndexOf, type VmIndex } from "./map-node.js";
import { CappedMap, MAX_ENTRIES_PER_TABLE } from "./capped-map.js";
import { limitReasonsOf, overcommitsLimits } from "./limit-overcommit.js";
import { ListedUids } from "./listed-uids.js";
import { PassMarks } from "../model/pass-marks.js";
import { vmCounterparts } from "./vm-counterparts.js";
import { KeptDecisions } from "./kept-decisions.js";
import { computePodTotals, listed, patchedTotals, patchedUids, podTotals, type PodTotals } from "./pod-totals.js";
import type { LimitsPolicy, PlacementPolicy, ThresholdPolicy } from "./policy.js";
import { predictHeat, type PredictedHeat } from "./predicted-heat.js";
import { HOST_METRIC_RULES } from "./rules/index.js";
import { NO_REASONS, type Reason } from "./reason.js";
import { SnapshotGroups } from "./snapshot-correlated-groups.js";
import type { CorrelatedGroups } from "./correlated-groups.js";
import type { HostJudgement } from "./rules/kubernetes/kubernetes-rule.js";
import { stackedCpuOf } from "./stacked-overcommit.js";

/** Distinct pod keys whose decisions are kept per snapshot; the oldest goes beyond (the simulator has well over 32 pending pods). */
const KEPT_KEYS = 256;

/**
 * Kept decisions per index, over all pod keys: beyond, the oldest pod keys' tables go. Pods with
 * distinct lifetimes (Jobs' deadlines, each its own prediction horizon) or limits are distinct keys.
 */
export const MAX_KEPT_DECISIONS = 25_000;

/** Owners (and excepted uids) whose last fewest-replicas count is kept per snapshot; more start afresh. */
const KEPT_LEAST = 256;

/** What one ESXi host looks like to placement in one snapshot pair: its pods, their sums, the burst guard's projection. */
export interface HostEntry {
  readonly host: HostView;
  /** Non-terminal and terminal pods on all the host's node VMs ([] without a cluster view). */
  readonly podsOnHost: readonly PodView[];
  readonly totals: PodTotals;
  /** Bound pods the host's metrics cannot show yet (burst guard). */
  readonly pending: PendingDemand;
  /** The host with the pending pods' demand added to its usage. */
  readonly projected: HostView;
}

/** A node of the cluster view with its pods' sums. */
export interface NodeEntry {
  readonly node: NodeView;
  readonly pods: readonly PodView[];
  readonly totals: PodTotals;
}

/**
 * Everything placement derives from one snapshot pair (vCenter inventory, Kubernetes view) and
 * one policy, computed at most once per snapshot and shared by every request that sees the same
 * pair: node -> VM mapping, host pod lists and sums, burst-guard projections, the host and VM
 * verdicts (per whole-second sample age, since their reasons print it), the Kubernetes-layer
 * checks per incoming pod's limits, and the reasons' rendered text. Built by the edge (extender
 * handlers, simulator) when a snapshot changes and passed in `PlacementContext.index`; a request
 * without one gets a fresh index, filled only as far as that request needs.
 *
 * The object is frozen; its tables fill lazily (no request pays for a node it does not ask about).
 * A per-host input computed per snapshot (e.g. a predicted peak) belongs in `HostEntry`.
 */
export class PlacementIndex {
  /** The VM lookup tables (`vms`), built when first needed: a node the cluster view maps needs none. */
  private readonly vmTables: { index?: VmIndex } = {};
  /**
   * Rendered reason text per reason list (filled by the wire layer through `textOf`). A text is
   * a function of its list alone: a miss asks the previous index (adopted decisions' lists).
   */
  private readonly texts = new CappedMap<readonly Reason[], string>(MAX_ENTRIES_PER_TABLE);
  /** The same texts as JSON strings (quoted, escaped), for replies built from fragments. */
  private readonly jsonTexts = new CappedMap<readonly Reason[], string>(MAX_ENTRIES_PER_TABLE);
  /** By node name as requests send it (any name, known or not): capped. */
  private readonly vmByName = new CappedMap<string, VmView | undefined>(MAX_ENTRIES_PER_TABLE);
  /** By host id of the inventory: bounded by it. */
  private readonly hosts = new Map<string, HostEntry | undefined>();
  private readonly nodes = new CappedMap<string, NodeEntry | undefined>(MAX_ENTRIES_PER_TABLE);
  /** Verdicts per threshold set (the all-rejected valve asks again with heat thresholds lifted). */
  private readonly verdicts = new Map<ThresholdPolicy, Verdicts>();
  /** By host and the CPU limits' sum with the incoming pod. */
  private readonly stacked = new CappedMap<string, HostJudgement>(MAX_ENTRIES_PER_TABLE);
  /** By node and the CPU and memory limits' sums with the incoming pod. */
  private readonly limits = new CappedMap<string, readonly Reason[]>(MAX_ENTRIES_PER_TABLE);
  private readonly derived = new Map<PlacementPolicy, PlacementPolicy>();
  /** Predicted heat per host and horizon (a pod's lifetime: any number), for the present verdict it was derived from. */
  private readonly predictions = new CappedMap<string, { readonly alone: HostAssessment; readonly value: PredictedHeat | undefined }>(
    MAX_ENTRIES_PER_TABLE,
  );
  /**
   * The all-rejected valve's verdict per decision object: the tier when eligible, null when not
   * (`valveTier`). A miss asks the previous index: a decision object is only answered again
   * where nothing it depends on changed (kept, or adopted), so is its valve verdict.
   */
  private readonly valveTiers = new WeakMap<object, number | null>();
  /** The last fewest-replicas count per owner and excepted uid, with the candidates it was counted over (`leastReplicas`). */
  private readonly least = new Map<string, { readonly candidates: readonly NodeIdentity[]; readonly value: number }>();
  /** Other policies asked of this index (the valve's heat-blind one), numbered for `policyKey`. */
  private readonly policies = new Map<PlacementPolicy, number>();
  /** The hosts a pass over a request's candidates has met (`RequestMemo.leastOnCandidates`). */
  readonly hostVisits = new PassMarks();
  /** Whole decisions per pod key (`keptDecisions`). */
  private readonly kept = new Map<string, KeptDecisions<unknown>>();
  /** The cluster view served, its occupancy and listed uids (built when asked): replaced in place when pod lists change (`advance`). */
  private readonly cluster: { view: ClusterView | undefined; occupancy: HostOccupancy | undefined; listed?: ListedUids };
  /** The correlated-burst cap's groups: learnt per poll's forecasts, the predecessor's standing in while this one learns. */
  private readonly groups: SnapshotGroups;

  constructor(
    readonly inventory: InventoryView,
    readonly policy: PlacementPolicy,
    view: ClusterView | undefined,
    private readonly overlay?: IndexOverlay,
    /** The previous index of the same policy (another view or inventory): what did not change is taken from it, not kept. */
    predecessor?: PlacementIndex,
    /** Learn new forecasts' correlated groups in `learnGroups` steps, not in the request that first needs them (a server). */
    learnGroupsInBackground = false,
  ) {
    this.groups = overlay ? overlay.base.groups : new SnapshotGroups(learnGroupsInBackground, predecessor?.groups);
    const sameVms = predecessor !== undefined && sameHostsAndVms(predecessor.inventory, inventory);
    if (overlay) this.vmTables = overlay.base.vmTables;
    else if (sameVms) this.vmTables = predecessor.vmTables;
    this.cluster = { view, occupancy: undefined };
    this.cluster.occupancy = overlay
      ? overlay.occupancy
      : view
        ? predecessor
          ? this.reuse(predecessor, view, sameVms)
          : buildHostOccupancy(view, this.vms, policy.nodeMapping)
        : undefined;
    if (predecessor && view && !overlay) this.cluster.listed = predecessor.handOverListed(view);
    Object.freeze(this);
  }

  /** The inventory's VM lookup tables. */
  get vms(): VmIndex {
    return (this.vmTables.index ??= vmIndexOf(this.inventory));
  }

  /** The Kubernetes view this index answers for (undefined: extender-only). */
  get view(): ClusterView | undefined {
    return this.cluster.view;
  }

  /** Which nodes and pods sit on each host, for `view`. */
  get occupancy(): HostOccupancy | undefined {
    return this.cluster.occupancy;
  }

  /** The listed uids, patched to `view`'s lists, for the index that succeeds this one (this one builds them again if asked). */
  private handOverListed(view: ClusterView): ListedUids | undefined {
    const { listed, view: before } = this.cluster;
    if (!listed || !before) return undefined;
    this.cluster.listed = undefined;
    listed.patch(changedNodes(before, view), before.podsByNode, view.podsByNode);
    return listed;
  }

  /**
   * False only when no pod list of the view holds a pod with `uid` (nor, then, any node's or
   * host's uid set). An index for preemption's derived view says true: its sets are asked.
   */
  listsUid(uid: string): boolean {
    const view = this.cluster.view;
    if (this.overlay || !view) return true;
    this.cluster.listed ??= new ListedUids(view.podsByNode);
    return this.cluster.listed.has(uid);
  }

  /**
   * Serves `view` from now on, when it differs from the one served only in pod lists (same
   * nodes map: a binding, a deletion, an in-flight pod): patches the changed hosts' entries by
   * what their nodes lost and gained (`patchedEntry`), forgets what the changed pods decided
   * (node entries, the hosts' verdicts and kept decisions, the fewest-replicas counts) and keeps
   * the rest: O(changed nodes) when both views' pod maps are overlays on one map
   * (src/model/overlay-map.ts), else one pass over both. False (nothing changed) when the views
   * differ in more than pod lists: build a new index then.
   */
  advance(view: ClusterView): boolean {
    const before = this.cluster.view;
    const occupancy = this.cluster.occupancy;
    if (this.overlay || !before || !occupancy || view.nodes !== before.nodes) return false;
    const changed = changedNodes(before, view);
    const changedOnHost = new Map<string, string[]>();
    for (const name of changed) {
      this.nodes.delete(name);
      const hostId = occupancy.hostOfNode.get(name);
      if (hostId !== undefined) (changedOnHost.get(hostId) ?? changedOnHost.set(hostId, []).get(hostId)!).push(name);
    }
    const hostIds = new Set(changedOnHost.keys());
    const outdated = new Map<string, HostEntry>();
    for (const hostId of hostIds) {
      const entry = this.hosts.get(hostId);
      this.hosts.delete(hostId);
      if (entry) outdated.set(hostId, entry);
    }
    for (const v of this.verdicts.values()) for (const hostId of hostIds) v.alone.delete(hostId);
    for (const table of this.kept.values()) table.forget(changed, hostIds);
    this.least.clear();
    this.cluster.listed?.patch(changed, before.podsByNode, view.podsByNode);
    this.cluster.view = view;
    const next = advanced(occupancy, view, hostIds);
    this.cluster.occupancy = next;
    for (const [hostId, entry] of outdated) {
      const patched = patchedEntry(entry, next.podsOnHost(hostId), changedOnHost.get(hostId)!, before, view, this.policy);
      if (patched) this.hosts.set(hostId, patched);
    }
    return true;
  }

  /**
   * Takes from `prev` (same policy, another view) the node entries whose node and pod list are
   * the same objects. With the same hosts and VMs and the same nodes map (so the same node -> VM
   * mapping) it takes the mapping and the host entries whose every node's pod list is the same
   * object; with another inventory, only such hosts' pod lists and sums (their burst-guard
   * projection is computed again on the new sample). Returns this view's occupancy. Verdicts and
   * kept decisions are not taken (fewest-replicas counts span hosts).
   */
  private reuse(prev: PlacementIndex, view: ClusterView, sameVms: boolean): HostOccupancy {
    const before = prev.view!;
    const samePodsOn = (name: string) => view.podsByNode.get(name) === before.podsByNode.get(name);
    const samePods = (names: readonly string[]) => names.every(samePodsOn);
    for (const [name, entry] of prev.nodes) {
      if (entry && view.nodes.get(name) === entry.node && samePodsOn(name)) this.nodes.set(name, entry);
    }
    const known = new Map<string, readonly PodView[]>();
    if (sameVms && view.nodes === before.nodes && prev.occupancy) {
      for (const [hostId, entry] of prev.hosts) {
        if (entry && !samePods(prev.occupancy.nodesOnHost.get(hostId) ?? [])) continue;
        this.hosts.set(hostId, entry);
        if (entry) known.set(hostId, entry.podsOnHost);
      }
      return reoccupy(prev.occupancy, view, known);
    }
    // A poll with the same VMs (new objects, new samples) maps every node as before: only the VM objects are new.
    const sameVmsAs = view.nodes === before.nodes && prev.occupancy ? vmCounterparts(prev.inventory, this.inventory, true) : undefined;
    const occupancy = sameVmsAs
      ? remapped(prev.occupancy!, sameVmsAs, view, known)
      : buildHostOccupancy(view, this.vms, this.policy.nodeMapping, known);
    if (!prev.occupancy) return occupancy;
    const guard = this.policy.burstGuard;
    for (const [hostId, entry] of prev.hosts) {
      const host = this.inventory.hosts.get(hostId);
      const names = occupancy.nodesOnHost.get(hostId) ?? [];
      if (!entry || !host || !sameList(names, prev.occupancy.nodesOnHost.get(hostId) ?? []) || !samePods(names)) continue;
      const { podsOnHost, totals } = entry;
      const pending = guard.enabled ? sumPending(podsOnHost, host.metrics?.sampledAtMs, guard.settleSeconds * 1000) : NO_PENDING;
      this.hosts.set(hostId, { host, podsOnHost, totals, pending, projected: projectHost(host, pending) });
      known.set(hostId, podsOnHost);
    }
    return occupancy;
  }

  /**
   * This index for a view that differs from its own in one node's pod list (preemption: the
   * node's victims gone), given that view's occupancy tables: every other host and node is
   * answered from this index.
   */
  without(view: ClusterView, occupancy: HostOccupancy, hostId: string, nodeName: string): PlacementIndex {
    return new PlacementIndex(this.inventory, this.policy, view, { base: this, occupancy, hostId, nodeName });
  }

  /** Whether this index answers for `ctx`'s snapshots and the policy parts it depends on (mapping, burst guard, limits). */
  serves(inventory: InventoryView, view: ClusterView | undefined, policy: PlacementPolicy): boolean {
    const p = this.policy;
    return (
      this.inventory === inventory &&
      this.view === view &&
      (p === policy || (p.nodeMapping === policy.nodeMapping && p.burstGuard === policy.burstGuard && p.limits === policy.limits))
    );
  }

  /**
   * The node's VM. A node sent by name only (cache mode) is mapped through the Node the
   * cluster view holds for it (providerID, systemUUID); else by the mapping rules.
   */
  vmOf(node: NodeIdentity): VmView | undefined {
    if (node.providerID || node.systemUUID) return mapNodeToVm(node, this.vms, this.policy.nodeMapping);
    const known = this.vmByName.get(node.name);
    if (known !== undefined || this.vmByName.has(node.name)) return known;
    const vm =
      this.occupancy && this.view!.nodes.has(node.name)
        ? this.occupancy.vmOfNode.get(node.name)
        : mapNodeToVm(node, this.vms, this.policy.nodeMapping);
    this.vmByName.set(node.name, vm);
    return vm;
  }

  /** Which replica groups burst together (correlated-groups.ts), as this index answers now (`SnapshotGroups`). */
  correlatedGroups(): CorrelatedGroups {
    return this.groups.of(this.overlay ? this.overlay.base : this);
  }

  /** Whether `learnGroups` has correlated groups to learn. */
  get groupsToLearn(): boolean {
    return !this.overlay && this.groups.pending(this);
  }

  /**
   * Learns the correlated groups of this index's forecasts for about `budgetMs`; true when none
   * are left to learn. Decisions kept with the groups that stood in are forgotten then.
   */
  learnGroups(budgetMs: number): boolean {
    if (!this.groupsToLearn) return true;
    if (!this.groups.step(this, budgetMs)) return false;
    this.kept.clear();
    return true;
  }

  /** The host's pods, sums and burst-guard projection; undefined when the host is not in the inventory. */
  hostEntry(hostId: string): HostEntry | undefined {
    if (this.overlay && hostId !== this.overlay.hostId) return this.overlay.base.hostEntry(hostId);
    const known = this.hosts.get(hostId);
    if (known !== undefined || this.hosts.has(hostId)) return known;
    const host = this.inventory.hosts.get(hostId);
    let entry: HostEntry | undefined;
    if (host && this.overlay) {
      // The derived list's sums and pending demand are known by subtraction (without-victims.ts).
      const podsOnHost = this.overlay.occupancy.podsOnHost(hostId);
      const guard = this.policy.burstGuard;
      const pending = guard.enabled ? pendingDemand(podsOnHost, host.metrics?.sampledAtMs, guard.settleSeconds * 1000) : NO_PENDING;
      entry = { host, podsOnHost, totals: podTotals(podsOnHost), pending, projected: projectHost(host, pending) };
    } else if (host) {
      const podsOnHost = this.occupancy ? this.occupancy.podsOnHost(hostId) : [];
      const guard = this.policy.burstGuard;
      const pending =
        this.occupancy && guard.enabled ? sumPending(podsOnHost, host.metrics?.sampledAtMs, guard.settleSeconds * 1000) : NO_PENDING;
      entry = { host, podsOnHost, totals: computePodTotals(podsOnHost), pending, projected: projectHost(host, pending) };
    }
    this.hosts.set(hostId, entry);
    return entry;
  }

  /**
   * The host's present verdict with its predicted peak over `horizonMs` (predicted-heat.ts) and
   * the metrics its score reads; undefined without a forecast. Once per host, horizon and verdict.
   */
  predicted(entry: HostEntry, alone: HostAssessment, horizonMs: number, policy: PlacementPolicy): PredictedHeat | undefined {
    const key = `${entry.host.id}|${horizonMs}`;
    const known = this.predictions.get(key);
    if (known && known.alone === alone) return known.value;
    const value = predictHeat(alone, entry.host, entry.projected.metrics, this.inventory.forecasts?.get(entry.host.id), horizonMs, policy);
    this.predictions.set(key, { alone, value });
    return value;
  }

  /** A node of the cluster view with its pods' sums; undefined without a view or when the view lacks it. */
  nodeEntry(name: string): NodeEntry | undefined {
    if (this.overlay && name !== this.overlay.nodeName) return this.overlay.base.nodeEntry(name);
    if (this.nodes.has(name)) return this.nodes.get(name);
    const node = this.view?.nodes.get(name);
    const pods = node ? (this.view!.podsByNode.get(name) ?? []) : [];
    const entry = node ? { node, pods, totals: computePodTotals(pods) } : undefined;
    this.nodes.set(name, entry);
    return entry;
  }

  /**
   * The host's own verdict on its projected metrics, with the reasons that include pending pods
   * marked. Depends on the clock only through the sample's and the inventory entry's ages in whole
   * seconds: requests in the same second share it.
   */
  hostAlone(entry: HostEntry, t: ThresholdPolicy, nowMs: number): HostAssessment {
    const host = entry.projected;
    const ageS = host.metrics ? ageSeconds(host.metrics.sampledAtMs, nowMs) : undefined;
    const stateAgeS = ageSeconds(host.polledAtMs, nowMs);
    const memo = this.verdictsFor(t).alone;
    const known = memo.get(host.id);
    if (known && known.ageS === ageS && known.stateAgeS === stateAgeS) return known.value;
    let value = judgeHostAlone(host, t, nowMs);
    if (entry.pending.pods > 0) value = markPending(value, entry.pending.pods);
    memo.set(host.id, { ageS, stateAgeS, value });
    return value;
  }

  /** `hostAlone` with the node VM's own rules (ready, any balloon), per VM and sample age. */
  assessment(entry: HostEntry, alone: HostAssessment, vm: VmView, t: ThresholdPolicy, nowMs: number): HostAssessment {
    const ageS = vm.metrics ? ageSeconds(vm.metrics.sampledAtMs, nowMs) : -1;
    const memo = this.verdictsFor(t).withVm;
    const known = memo.get(vm);
    if (known && known.alone === alone && known.ageS === ageS) return known.value;
    const value = judgeVm(alone, entry.projected, vm, t, nowMs);
    memo.set(vm, { alone, ageS, value });
    return value;
  }

  private verdictsFor(t: ThresholdPolicy): Verdicts {
    let v = this.verdicts.get(t);
    if (!v) this.verdicts.set(t, (v = { alone: new Map(), withVm: new Map() }));
    return v;
  }

  /** The stacked cap's judgement of the host with `incoming` added (unless it is already there); one object per distinct sum. */
  stackedCpu(entry: HostEntry, incoming: PodView, policy: LimitsPolicy): HostJudgement {
    const cpuLimitsMilli = entry.totals.cpuLimitsMilli + (listed(entry.totals, incoming) ? 0 : incoming.limits.cpuMilli);
    const key = `${entry.host.id}\n${cpuLimitsMilli}`;
    let known = this.stacked.get(key);
    if (!known) {
      const check = stackedCpuOf(entry.host, cpuLimitsMilli, policy);
      // The reason as a list of its own, so that every request's nodes on this host share it (and its text).
      known = {
        reasons: Object.freeze(check.reason ? [check.reason] : []),
        adjustment: {
          rule: "stacked-cap",
          points: check.penalty,
          detail: `ratio ${check.ratio.toFixed(2)} of ${policy.maxStackedCpuOvercommit}`,
        },
      };
      this.stacked.set(key, known);
    }
    return known;
  }

  /** The node's limit-overcommit reasons with `incoming` added (unless it is already there); one list per distinct sum. */
  limitReasons(entry: NodeEntry, incoming: PodView, policy: LimitsPolicy): readonly Reason[] {
    const self = listed(entry.totals, incoming);
    const cpu = entry.totals.cpuLimitsMilli + (self ? 0 : incoming.limits.cpuMilli);
    const memory = entry.totals.memoryLimitsBytes + (self ? 0 : incoming.limits.memoryBytes);
    // Most nodes have room: one comparison per resource, no key.
    if (!overcommitsLimits(entry.node, cpu, memory, policy)) return NO_REASONS;
    const key = `${entry.node.name}\n${cpu}\n${memory}`;
    let reasons = this.limits.get(key);
    if (!reasons) this.limits.set(key, (reasons = Object.freeze(limitReasonsOf(entry.node, cpu, memory, policy))));
    return reasons;
  }

  /**
   * The decisions kept for pods with `key` (what of the pod and the request a decision depends
   * on; "" when nothing) under `policy`: see `KeptDecisions` for how long each stands.
   */
  keptDecisions<D>(policy: PlacementPolicy, key: string): KeptDecisions<D> {
    const fullKey = this.policyKey(policy, key);
    let table = this.kept.get(fullKey);
    if (!table) {
      // A handful of pod shapes per snapshot is the common case; beyond, the oldest go.
      this.dropOldestKept();
      this.kept.set(fullKey, (table = new KeptDecisions()));
    }
    return table as KeptDecisions<D>;
  }

  /** Drops the oldest pod keys' tables while there are more than KEPT_KEYS - 1 tables or MAX_KEPT_DECISIONS decisions. */
  private dropOldestKept(): void {
    let decisions = 0;
    for (const table of this.kept.values()) decisions += table.size;
    for (const [key, table] of this.kept) {
      if (this.kept.size < KEPT_KEYS && decisions < MAX_KEPT_DECISIONS) return;
      this.kept.delete(key);
      decisions -= table.size;
    }
  }

  /**
   * `policy` as `derive` changes it (the all-rejected valve lifts the heat thresholds), one
   * object per policy and index, so that decisions under it are kept too.
   */
  derivedPolicy(policy: PlacementPolicy, derive: (p: PlacementPolicy) => PlacementPolicy): PlacementPolicy {
    let derived = this.derived.get(policy);
    if (!derived) this.derived.set(policy, (derived = derive(policy)));
    return derived;
  }

  /** `key` for decisions under `policy`: the all-rejected valve asks again with heat thresholds lifted, and both answers stay kept. */
  private policyKey(policy: PlacementPolicy, key: string): string {
    if (policy === this.policy) return key;
    let n = this.policies.get(policy);
    if (n === undefined) this.policies.set(policy, (n = this.policies.size + 1));
    return `policy ${n}|${key}`;
  }

  /**
   * The fewest replicas of `owner` on the candidates' hosts, as `count` finds it; kept for the
   * last candidate list per owner and excepted uid, so that a pod's filter and prioritize (the
   * same names) count once.
   */
  leastReplicas(owner: string, exceptUid: string, candidates: readonly NodeIdentity[], count: () => number): number {
    const key = `${owner}\n${exceptUid}`;
    const known = this.least.get(key);
    if (known && sameNames(known.candidates, candidates)) return known.value;
    const value = count();
    if (this.least.size >= KEPT_LEAST) this.least.clear();
    this.least.set(key, { candidates, value });
    return value;
  }

  /**
   * The all-rejected valve's verdict on a heat-rejected decision: its heat tier when the node is
   * eligible, undefined when not; `decide` runs once per decision object. A kept decision is
   * answered only for the same node, pod key, policy and ages, so its re-decision is the same too.
   */
  valveTier(decision: object, decide: () => number | undefined): number | undefined {
    const known = this.valveTiers.get(decision);
    if (known !== undefined) return known ?? undefined;
    const tier = decide();
    this.valveTiers.set(decision, tier ?? null);
    return tier;
  }

  /** The text of a reason list, rendered once per list by `render` (the wire layer's formatter). */
  textOf(reasons: readonly Reason[], render: (reasons: readonly Reason[]) => string): string {
    let text = this.texts.get(reasons);
    if (text === undefined) this.texts.set(reasons, (text = render(reasons)));
    return text;
  }

  /** `textOf`'s text as a JSON string, once per list. */
  jsonTextOf(reasons: readonly Reason[], render: (reasons: readonly Reason[]) => string): string {
    let json = this.jsonTexts.get(reasons);
    if (json === undefined) this.jsonTexts.set(reasons, (json = JSON.stringify(this.textOf(reasons, render))));
    return json;
  }
}

interface Verdicts {
  readonly alone: Map<string, { ageS: number | undefined; stateAgeS: number; value: HostAssessment }>;
  readonly withVm: Map<VmView, { alone: HostAssessment; ageS: number; value: HostAssessment }>;
}

/** How a derived index differs from its base: one host's and one node's pod lists. */
interface IndexOverlay {
  readonly base: PlacementIndex;
  readonly occupancy: HostOccupancy;
  readonly hostId: string;
  readonly nodeName: string;
}

/**
 * The nodes whose pod lists may differ between two views of the same nodes map: the overlaid
 * nodes when both pod maps are overlays on one map (a binding, an in-flight pod), else every
 * node whose list is another object.
 */
function changedNodes(before: ClusterView, view: ClusterView): Iterable<string> {
  const overlaid = OverlayMap.differingKeys(before.podsByNode, view.podsByNode);
  if (overlaid) return overlaid;
  const changed: string[] = [];
  for (const [name, pods] of view.podsByNode) if (before.podsByNode.get(name) !== pods) changed.push(name);
  for (const name of before.podsByNode.keys()) if (!view.podsByNode.has(name)) changed.push(name);
  return changed;
}

function sameHostsAndVms(a: InventoryView, b: InventoryView): boolean {
  return a === b || (a.hosts === b.hosts && a.vms === b.vms && a.ambiguousBiosUuids === b.ambiguousBiosUuids);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameNames(a: readonly NodeIdentity[], b: readonly NodeIdentity[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.name !== b[i]!.name) return false;
  return true;
}

/**
 * `entry` for the host's new pod list `podsOnHost`, which differs from the entry's in the pods of
 * the nodes `names` alone: sums and pending demand patched by what those nodes lost and gained,
 * in the size of the change rather than of the host's pods. Undefined when a sum cannot be
 * patched exactly (compute the entry afresh then).
 */
function patchedEntry(
  entry: HostEntry,
  podsOnHost: readonly PodView[],
  names: readonly string[],
  before: ClusterView,
  view: ClusterView,
  policy: PlacementPolicy,
): HostEntry | undefined {
  const gone: PodView[] = [];
  const added: PodView[] = [];
  for (const name of names) {
    const was = before.podsByNode.get(name) ?? [];
    const now = view.podsByNode.get(name) ?? [];
    const kept = new Set(now);
    for (const p of was) if (!kept.delete(p)) gone.push(p);
    added.push(...kept);
  }
  const uids = patchedUids(entry.totals.uids, gone, added, podsOnHost);
  const totals = patchedTotals(entry.totals, computePodTotals(gone), computePodTotals(added), uids);
  const guard = policy.burstGuard;
  const { host } = entry;
  const pendingOf = (pods: readonly PodView[]) => sumPending(pods, host.metrics?.sampledAtMs, guard.settleSeconds * 1000);
  const pending = guard.enabled ? patchedPending(entry.pending, pendingOf(gone), pendingOf(added)) : NO_PENDING;
  if (!totals || !pending) return undefined;
  const projected = pending === entry.pending ? entry.projected : projectHost(host, pending);
  return { host, podsOnHost, totals, pending, projected };
}

/** What the burst guard projects: the rules whose value includes pending pods' demand. */
const PROJECTED_METRICS: ReadonlySet<string> = new Set(HOST_METRIC_RULES.filter((r) => r.projectedBy !== undefined).map((r) => r.metric));

/** Marks the reasons whose values include pending pods, so operators can tell projection from measurement. */
function markPending(a: HostAssessment, pods: number): HostAssessment {
  const mark = (r: Reason): Reason => (r.code === "host_metric" && PROJECTED_METRICS.has(r.metric) ? { ...r, pendingPods: pods } : r);
  return { ...a, rejections: a.rejections.map(mark), warnings: a.warnings.map(mark) };
}

/**
 * Keeps the index of the latest snapshot pair: `indexFor` answers the same index while the
 * inventory, the cluster view and the policy stay the same objects, and builds a new one when
 * any changes (a poll, a cluster-cache change), reusing the previous index's unchanged node and
 * host entries (see `reuse`). Owned by the edge that serves requests.
 */
export class LatestPlacementIndex {
  private last: PlacementIndex | undefined;

  /** `learnGroupsInBackground`: see `PlacementIndex`; the server calls `learnGroups` between requests. */
  constructor(private readonly learnGroupsInBackground = false) {}

  /** Whether the latest index has correlated groups to learn. */
  get groupsToLearn(): boolean {
    return this.last?.groupsToLearn ?? false;
  }

  /** `PlacementIndex.learnGroups` of the latest index. */
  learnGroups(budgetMs: number): boolean {
    return this.last?.learnGroups(budgetMs) ?? true;
  }

  indexFor(inventory: InventoryView, view: ClusterView | undefined, policy: PlacementPolicy): PlacementIndex {
    const last = this.last;
    if (last?.serves(inventory, view, policy) && last.policy === policy) return last;
    // Only pod lists changed (a binding, a deletion, an in-flight pod): the same index, told which.
    if (last && view && last.inventory === inventory && last.policy === policy && last.advance(view)) return last;
    // A poll, or a change of the nodes, reuses what did not change.
    const predecessor = last && view && last.view && last.policy === policy ? last : undefined;
    this.last = new PlacementIndex(inventory, policy, view, undefined, predecessor, this.learnGroupsInBackground);
    return this.last;
  }
}
