import type { HostView, InventoryView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import { assessHostAlone, withVm, type HostAssessment } from "./assess-host.js";
import { exemptionOf, type PodMeta } from "./exemption.js";
import { mapNodeToVm, vmIndexOf } from "./map-node.js";
import type { PlacementPolicy } from "./policy.js";
import type { Reason } from "./reason.js";
import { scoreHost } from "./score-host.js";

/** Everything a decision may look at; built per request by the edge. */
export interface PlacementContext {
  readonly inventory: InventoryView;
  readonly policy: PlacementPolicy;
  readonly nowMs: number;
}

export interface NodeDecision {
  readonly node: string;
  /** reject: keep the pod off this node. Host-based rejections are unresolvable by preemption. */
  readonly verdict: "pass" | "reject";
  readonly unresolvable: boolean;
  /** Rejections when rejected; when passing with no opinion, why hvx has none. */
  readonly reasons: readonly Reason[];
  /** hvx could not judge the node (unmapped, no host, missing or stale metrics). */
  readonly noOpinion: boolean;
  readonly vm: VmView | undefined;
  readonly host: HostView | undefined;
  readonly assessment: HostAssessment | undefined;
  /** Set when the pod bypasses host-based rules. */
  readonly exemptBy: string | undefined;
  /** 0..10, higher is better. */
  readonly score: number;
}

/** Host verdicts shared by the node VMs of one host within one request. */
export type HostAssessmentCache = Map<string, HostAssessment>;

/**
 * Decides one node for one pod (pod undefined: prioritize-only or /debug views).
 * `cache` lets a request judge each host once, however many of its VMs are candidates.
 */
export function decideNode(node: NodeIdentity, pod: PodMeta | undefined, ctx: PlacementContext, cache: HostAssessmentCache = new Map()): NodeDecision {
  const { policy } = ctx;
  const exemptBy = pod ? exemptionOf(pod, policy.exempt) : undefined;
  const vm = mapNodeToVm(node, vmIndexOf(ctx.inventory), policy.nodeMapping);
  if (!vm) return noOpinion(node.name, { code: "node_unmapped", node: node.name }, policy, exemptBy, undefined, undefined, undefined);
  const host = ctx.inventory.hosts.get(vm.hostId);
  if (!host) {
    return noOpinion(node.name, { code: "vm_host_unknown", vm: { id: vm.id, name: vm.name }, hostId: vm.hostId }, policy, exemptBy, vm, undefined, undefined);
  }
  let alone = cache.get(host.id);
  if (!alone) {
    alone = assessHostAlone(host, policy.thresholds, ctx.nowMs);
    cache.set(host.id, alone);
  }
  const assessment = withVm(alone, host, vm, policy.thresholds, ctx.nowMs);
  if (assessment.rejections.length > 0 && exemptBy === undefined) {
    return { node: node.name, verdict: "reject", unresolvable: true, reasons: assessment.rejections, noOpinion: false, score: 0, vm, host, assessment, exemptBy };
  }
  if (assessment.staleness) return noOpinion(node.name, assessment.staleness, policy, exemptBy, vm, host, assessment);
  const score = scoreHost(assessment, host.metrics!, vm.metrics, policy.thresholds);
  return { node: node.name, verdict: "pass", unresolvable: false, reasons: [], noOpinion: false, score, vm, host, assessment, exemptBy };
}

function noOpinion(
  node: string,
  reason: Reason,
  policy: PlacementPolicy,
  exemptBy: string | undefined,
  vm: VmView | undefined,
  host: HostView | undefined,
  assessment: HostAssessment | undefined,
): NodeDecision {
  const reject = policy.staleMetrics === "reject" && exemptBy === undefined;
  return { node, verdict: reject ? "reject" : "pass", unresolvable: reject, reasons: [reason], noOpinion: true, score: policy.scoring.unknownScore, vm, host, assessment, exemptBy };
}
