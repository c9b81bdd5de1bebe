import type { HostView, InventoryView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import { assessHost, type HostAssessment } from "./assess-host.js";
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
  readonly vm?: VmView;
  readonly host?: HostView;
  readonly assessment?: HostAssessment;
  /** Set when the pod bypasses host-based rules. */
  readonly exemptBy?: string;
  /** 0..10, higher is better. */
  readonly score: number;
}

/** Decides one node for one pod (pod undefined: prioritize-only or /debug views). */
export function decideNode(node: NodeIdentity, pod: PodMeta | undefined, ctx: PlacementContext): NodeDecision {
  const { policy } = ctx;
  const exemptBy = pod ? exemptionOf(pod, policy.exempt) : undefined;
  const withExemption = exemptBy !== undefined ? { exemptBy } : {};
  const vm = mapNodeToVm(node, vmIndexOf(ctx.inventory), policy.nodeMapping);
  if (!vm) return noOpinion(node.name, { code: "node_unmapped", node: node.name }, policy, exemptBy);
  const host = ctx.inventory.hosts.get(vm.hostId);
  if (!host) return noOpinion(node.name, { code: "vm_host_unknown", vm: { id: vm.id, name: vm.name }, hostId: vm.hostId }, policy, exemptBy, { vm });

  const assessment = assessHost(host, vm, policy.thresholds, ctx.nowMs);
  const seen = { vm, host, assessment, ...withExemption };
  if (assessment.rejections.length > 0 && exemptBy === undefined) {
    return { node: node.name, verdict: "reject", unresolvable: true, reasons: assessment.rejections, noOpinion: false, score: 0, ...seen };
  }
  if (assessment.staleness) return noOpinion(node.name, assessment.staleness, policy, exemptBy, seen);
  const score = scoreHost(assessment, host.metrics!, vm.metrics, policy.thresholds);
  return { node: node.name, verdict: "pass", unresolvable: false, reasons: [], noOpinion: false, score, ...seen };
}

function noOpinion(
  node: string,
  reason: Reason,
  policy: PlacementPolicy,
  exemptBy: string | undefined,
  seen: Partial<Pick<NodeDecision, "vm" | "host" | "assessment">> = {},
): NodeDecision {
  const base = { node, reasons: [reason], noOpinion: true, score: policy.scoring.unknownScore, ...seen, ...(exemptBy !== undefined ? { exemptBy } : {}) };
  if (policy.staleMetrics === "reject" && exemptBy === undefined) return { ...base, verdict: "reject", unresolvable: true };
  return { ...base, verdict: "pass", unresolvable: false };
}
