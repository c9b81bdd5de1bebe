import type { ClusterView, PodView } from "../model/cluster.js";
import type { HostMetrics, HostView, InventoryView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import { assessHostAlone, withVm, type HostAssessment } from "./assess-host.js";
import { pendingDemand, projectHost, type PendingDemand } from "./burst-guard.js";
import { clusterViewFresh } from "./cluster-freshness.js";
import { exemptionOf, type Exemption, type PodMeta } from "./exemption.js";
import { hostOccupancyOf, type HostOccupancy } from "./host-occupancy.js";
import { checkSpread, replicasOn, spreadRuleOf, type SpreadCheck, type SpreadRule } from "./host-spread.js";
import { limitOvercommitReasons } from "./limit-overcommit.js";
import { mapNodeToVm, vmIndexOf } from "./map-node.js";
import type { PlacementPolicy } from "./policy.js";
import { predictHeat, predictionHorizonMs } from "./predicted-heat.js";
import type { Reason } from "./reason.js";
import { penalise, scoreHost } from "./score-host.js";
import { checkStackedCpu, type StackedCheck } from "./stacked-overcommit.js";

/** The Kubernetes side, when hvx watches the cluster: enables burst guard, limits and spread. */
export interface ClusterContext {
  readonly view: ClusterView;
  /** The pod being scheduled, with its demand and replica group. */
  readonly pod: PodView;
}

/** Everything a decision may look at; built per request by the edge. */
export interface PlacementContext {
  readonly inventory: InventoryView;
  readonly policy: PlacementPolicy;
  readonly nowMs: number;
  readonly cluster?: ClusterContext;
}

export interface NodeDecision {
  readonly node: string;
  /** reject: keep the pod off this node. Host-based rejections are unresolvable by preemption. */
  readonly verdict: "pass" | "reject";
  readonly unresolvable: boolean;
  /** Rejections when rejected; when passing with no opinion, why hvx has none. */
  readonly reasons: readonly Reason[];
  /** hvx could not judge the node's host (unmapped, no host, missing or stale metrics, stale inventory). */
  readonly noOpinion: boolean;
  readonly vm: VmView | undefined;
  readonly host: HostView | undefined;
  readonly assessment: HostAssessment | undefined;
  /** Set when the pod bypasses every hvx rule. */
  readonly exemptBy: string | undefined;
  /** 0..10, higher is better. */
  readonly score: number;
  /** What the decision weighed on the way, for `explain`: the burst guard's pending pods and the cluster's penalties. */
  readonly pending?: PendingDemand;
  readonly stacked?: StackedCheck;
  readonly spread?: SpreadCheck;
}

const NO_REASONS: readonly Reason[] = Object.freeze([]);

/** What one request computes once and shares between its candidate nodes. */
export class RequestMemo {
  readonly hosts = new Map<string, { projected: HostView; pending: PendingDemand; alone: HostAssessment; stacked?: StackedCheck; scoring?: HostMetrics }>();
  private horizon: { pod: PodMeta | undefined; ms: number } | undefined;
  private leastReplicas: number | undefined;
  private occupancyOf: HostOccupancy | undefined;
  private exemption: { pod: PodMeta | undefined; exempt: Exemption | undefined } | undefined;

  constructor(private readonly candidates: readonly NodeIdentity[] = []) {}

  /** Why the pod is exempt, and from which rules (or undefined), judged once per request. */
  exemptionOf(pod: PodMeta | undefined, policy: PlacementPolicy): Exemption | undefined {
    if (!this.exemption || this.exemption.pod !== pod) this.exemption = { pod, exempt: pod ? exemptionOf(pod, policy.exempt) : undefined };
    return this.exemption.exempt;
  }

  /** How far ahead the pod looks at its hosts' predicted peaks, ms (0: the present alone), judged once per request. */
  predictionHorizonMs(pod: PodMeta | undefined, policy: PlacementPolicy): number {
    if (!this.horizon || this.horizon.pod !== pod) this.horizon = { pod, ms: predictionHorizonMs(pod, policy.prediction) };
    return this.horizon.ms;
  }

  /** The snapshot pair's occupancy tables, looked up once per request. */
  occupancy(ctx: PlacementContext, cluster: ClusterContext): HostOccupancy {
    return (this.occupancyOf ??= hostOccupancyOf(cluster.view, ctx.inventory, ctx.policy.nodeMapping));
  }

  /** Fewest replicas of the owner on any candidate's host (0 when a candidate host has none). */
  leastReplicasOnCandidates(occupancy: HostOccupancy, rule: SpreadRule, exceptUid: string): number {
    if (this.leastReplicas === undefined) {
      let least = Number.POSITIVE_INFINITY;
      const seen = new Set<string>();
      for (const c of this.candidates) {
        const hostId = occupancy.hostOfNode.get(c.name);
        if (hostId === undefined || seen.has(hostId)) continue;
        seen.add(hostId);
        least = Math.min(least, replicasOn(occupancy.podsOnHost(hostId), rule.owner, exceptUid));
      }
      this.leastReplicas = Number.isFinite(least) ? least : 0;
    }
    return this.leastReplicas;
  }
}

/** Decides one node for one pod (pod undefined: prioritize-only or /debug views). */
export function decideNode(node: NodeIdentity, pod: PodMeta | undefined, ctx: PlacementContext, memo: RequestMemo = new RequestMemo([node])): NodeDecision {
  const { policy, cluster } = ctx;
  const exemption = memo.exemptionOf(pod, policy);
  const exemptBy = exemption?.by;
  // Kubernetes-layer caps: not for fully exempt pods, and no opinion on a cluster view too old to trust.
  const k8sRules = cluster !== undefined && exemption?.scope !== "all" && clusterViewFresh(cluster.view, ctx.nowMs, policy);
  const k8sReasons: Reason[] = cluster && k8sRules ? nodeLimitReasons(node.name, cluster, policy) : [];
  const vm = findVm(node, ctx, memo);
  const host = vm ? ctx.inventory.hosts.get(vm.hostId) : undefined;
  if (!vm || !host) {
    const reason: Reason = !vm ? { code: "node_unmapped", node: node.name } : { code: "vm_host_unknown", vm: { id: vm.id, name: vm.name }, hostId: vm.hostId };
    if (k8sReasons.length > 0) return rejected(node.name, false, k8sReasons, vm, host, undefined, exemptBy);
    return noOpinion(node.name, reason, policy, exemptBy, vm, undefined, undefined);
  }

  const judged = judgeHost(host, ctx, memo, pod);
  const assessment = withVm(judged.alone, judged.projected, vm, policy.thresholds, ctx.nowMs);
  const weighed: { pending: PendingDemand; stacked?: StackedCheck; spread?: SpreadCheck } = { pending: judged.pending };
  if (assessment.rejections.length > 0 && !exemptBy) return { ...rejected(node.name, true, assessment.rejections, vm, host, assessment, exemptBy), ...weighed };

  let penalty = 0;
  if (cluster && k8sRules) {
    const occupancy = memo.occupancy(ctx, cluster);
    const podsOnHost = occupancy.podsOnHost(host.id);
    const judgedHost = memo.hosts.get(host.id)!;
    const stacked = (judgedHost.stacked ??= checkStackedCpu(host, podsOnHost, cluster.pod, policy.limits));
    weighed.stacked = stacked;
    if (stacked.reason) k8sReasons.push(stacked.reason);
    penalty += stacked.penalty;
    const rule = spreadRuleOf(cluster.pod, pod?.annotations ?? {}, policy.scoring);
    if (rule) {
      const onHost = replicasOn(podsOnHost, rule.owner, cluster.pod.uid);
      const spread = checkSpread(host, onHost, memo.leastReplicasOnCandidates(occupancy, rule, cluster.pod.uid), rule);
      weighed.spread = spread;
      if (spread.reason) k8sReasons.push(spread.reason);
      penalty += spread.penalty;
    }
  }
  if (k8sReasons.length > 0) return { ...rejected(node.name, false, k8sReasons, vm, host, assessment, exemptBy), ...weighed };
  // No opinion on the host's data, but the cluster's penalties (spread, stacked overcommit) are known: keep them.
  if (assessment.staleness) return { ...noOpinion(node.name, assessment.staleness, policy, exemptBy, vm, host, assessment, penalty), ...weighed };
  const score = penalise(scoreHost(assessment, judged.scoring ?? judged.projected.metrics!, vm.metrics, policy.thresholds), assessment.heat, penalty);
  return { node: node.name, verdict: "pass", unresolvable: false, reasons: NO_REASONS, noOpinion: false, score, vm, host, assessment, exemptBy, ...weighed };
}

/**
 * The node's VM. A node sent by name only (cache mode) is mapped through the Node the
 * cluster view holds for it (providerID, systemUUID), from the snapshot's mapping table.
 */
function findVm(node: NodeIdentity, ctx: PlacementContext, memo: RequestMemo): VmView | undefined {
  const { cluster, policy } = ctx;
  if (!node.providerID && !node.systemUUID && cluster?.view.nodes.has(node.name)) {
    return memo.occupancy(ctx, cluster).vmOfNode.get(node.name);
  }
  return mapNodeToVm(node, vmIndexOf(ctx.inventory), policy.nodeMapping);
}

/** The host's own verdict, on metrics projected with the burst guard's pending pods. */
function judgeHost(host: HostView, ctx: PlacementContext, memo: RequestMemo, pod: PodMeta | undefined) {
  const known = memo.hosts.get(host.id);
  if (known) return known;
  const { policy, cluster } = ctx;
  let pending: PendingDemand = { cpuMilli: 0, memoryBytes: 0, pods: 0 };
  if (cluster && policy.burstGuard.enabled) {
    const pods = memo.occupancy(ctx, cluster).podsOnHost(host.id);
    pending = pendingDemand(pods, host.metrics?.sampledAtMs, policy.burstGuard.settleSeconds * 1000);
  }
  const projected = projectHost(host, pending);
  let alone = assessHostAlone(projected, policy.thresholds, ctx.nowMs);
  if (pending.pods > 0) alone = withPendingPods(alone, pending.pods);
  const forecast = ctx.inventory.forecasts?.get(host.id);
  const predicted = forecast ? predictHeat(alone, host, projected.metrics, forecast, memo.predictionHorizonMs(pod, policy), policy) : undefined;
  const judged = predicted ? { projected, pending, alone: predicted.assessment, scoring: predicted.metrics } : { projected, pending, alone };
  memo.hosts.set(host.id, judged);
  return judged;
}

const marked = new WeakMap<HostAssessment, HostAssessment>();

/** Marks the reasons whose values include pending pods, so operators can tell projection from measurement. */
function withPendingPods(a: HostAssessment, pods: number): HostAssessment {
  const known = marked.get(a);
  if (known) return known;
  const result = markPending(a, pods);
  marked.set(a, result);
  return result;
}

function markPending(a: HostAssessment, pods: number): HostAssessment {
  const mark = (r: Reason): Reason => (r.code === "host_metric" && (r.metric === "cpu usage" || r.metric === "memory usage") ? { ...r, pendingPods: pods } : r);
  return { ...a, rejections: a.rejections.map(mark), warnings: a.warnings.map(mark) };
}

function nodeLimitReasons(nodeName: string, cluster: ClusterContext, policy: PlacementPolicy): Reason[] {
  const node = cluster.view.nodes.get(nodeName);
  if (!node) return [];
  return limitOvercommitReasons(node, cluster.view.podsByNode.get(nodeName) ?? [], cluster.pod, policy.limits);
}

function rejected(node: string, unresolvable: boolean, reasons: readonly Reason[], vm: VmView | undefined, host: HostView | undefined, assessment: HostAssessment | undefined, exemptBy: string | undefined): NodeDecision {
  return { node, verdict: "reject", unresolvable, reasons, noOpinion: false, score: 0, vm, host, assessment, exemptBy };
}

function noOpinion(
  node: string,
  reason: Reason,
  policy: PlacementPolicy,
  exemptBy: string | undefined,
  vm: VmView | undefined,
  host: HostView | undefined,
  assessment: HostAssessment | undefined,
  penalty = 0,
): NodeDecision {
  const reject = policy.staleMetrics === "reject" && exemptBy === undefined;
  const score = penalise(policy.scoring.unknownScore, "unknown", penalty);
  return { node, verdict: reject ? "reject" : "pass", unresolvable: reject, reasons: [reason], noOpinion: true, score, vm, host, assessment, exemptBy };
}
