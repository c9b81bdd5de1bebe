import type { HostView, VmView } from "../model/inventory.js";
import type { NodeIdentity } from "../model/node.js";
import type { Heat } from "./assess-host.js";
import { projectHost, type PendingDemand } from "./burst-guard.js";
import type { NodeDecision, PlacementContext } from "./decide-node.js";
import type { PodMeta } from "./exemption.js";
import { filterNodes } from "./filter-nodes.js";
import { mapNodeToVm, vmIndexOf, type VmIndex } from "./map-node.js";
import type { NodeMappingRule } from "./policy.js";
import type { HostRef, Reason, VmRef } from "./reason.js";
import { HOST_METRIC_RULES, memoryState, rejectLevel, VM_METRIC_RULES, warnLevel, type HostRule, type VmRule } from "./rules/index.js";
import type { ScoreAdjustment } from "./rules/kubernetes/index.js";
import { headroomTerms, hostHeadroom, type HeadroomTerm } from "./score-host.js";

/** One threshold rule as the decision saw it: the value (projected with pending pods), its levels, and what it did. */
export interface RuleCheck {
  readonly scope: "host" | "vm";
  readonly metric: string;
  /** Undefined: vCenter did not return it (no opinion). */
  readonly value: number | string | undefined;
  readonly unit: "%" | "KB/s" | "MiB" | "";
  readonly op: ">=" | ">" | "in";
  readonly threshold: number | string;
  readonly warnAt?: number | string;
  /** reject / warn: the decision's own rejection or warning for this rule; ok: below both; unknown: no value, or data too old to judge. */
  readonly status: "reject" | "warn" | "ok" | "unknown";
  /** Age of the sample in whole seconds. */
  readonly ageS?: number;
}

export interface NodeExplanation {
  readonly node: string;
  readonly mapping: { readonly rule?: NodeMappingRule; readonly vm?: VmRef; readonly host?: HostRef };
  readonly verdict: "pass" | "reject";
  readonly unresolvable: boolean;
  readonly noOpinion: boolean;
  readonly exemptBy?: string;
  /** Rejections, or why hvx has no opinion. */
  readonly reasons: readonly Reason[];
  /** Warn levels crossed (why a host is warm). */
  readonly warnings: readonly Reason[];
  /** unknown: no opinion on the host (unmapped, missing or stale data). */
  readonly heat: Heat | "unknown";
  readonly rules: readonly RuleCheck[];
  readonly headroom?: { readonly terms: readonly HeadroomTerm[]; readonly total: number | undefined };
  readonly penalties: {
    /** Pods bound to the host's nodes that its metrics cannot show yet (added to cpu and memory usage). */
    readonly burstGuard?: PendingDemand;
    /** Kubernetes-layer limit rules that rejected the node. */
    readonly limits: readonly Reason[];
    /** What each Kubernetes-layer rule took off the score (stacked cap, replica spread, ...). */
    readonly adjustments: readonly ScoreAdjustment[];
  };
  /** The host's tier score before the Kubernetes-layer penalties (undefined when hvx has no host opinion or rejects on the host). */
  readonly baseScore?: number;
  /** 0..10: what /prioritize answers. */
  readonly score: number;
}

/**
 * Why each candidate node passes or fails and scores what it does: the very decisions of
 * /filter and /prioritize (`filterNodes`, i.e. `decideNode`), with the intermediate values
 * laid out. In the order sent.
 */
export function explainNodes(pod: PodMeta, nodes: readonly NodeIdentity[], ctx: PlacementContext): NodeExplanation[] {
  const vms = vmIndexOf(ctx.inventory);
  return filterNodes(pod, nodes, ctx).decisions.map((d, i) => explainDecision(d, nodes[i]!, ctx, vms));
}

function explainDecision(d: NodeDecision, node: NodeIdentity, ctx: PlacementContext, vms: VmIndex): NodeExplanation {
  const t = ctx.policy.thresholds;
  const rule = d.vm ? matchedRule(node, d.vm, ctx, vms) : undefined;
  const mapping = {
    ...(rule ? { rule } : {}),
    ...(d.vm ? { vm: { id: d.vm.id, name: d.vm.name } } : {}),
    ...(d.host ? { host: { id: d.host.id, name: d.host.name } } : {}),
  };
  const projected = d.host && d.pending ? projectHost(d.host, d.pending) : d.host;
  const a = d.assessment;
  const judged = a !== undefined && a.staleness === undefined;
  const heat = judged ? a.heat : "unknown";
  const found = [...(a?.rejections ?? []), ...d.reasons];
  const rules = projected && a ? ruleChecks(projected, d.vm, found, a.warnings, ctx, a.ageS, judged) : [];
  // What the decision's score read (predicted peaks when a forecast raised them); a rejected node's present metrics.
  const m = d.scoredOn ?? projected?.metrics;
  const headroom = m && judged ? { terms: headroomTerms(m, d.vm?.metrics, t), total: hostHeadroom(m, d.vm?.metrics, t) } : undefined;
  const baseScore = d.baseScore;
  return {
    node: d.node,
    mapping,
    verdict: d.verdict,
    unresolvable: d.unresolvable,
    noOpinion: d.noOpinion,
    ...(d.exemptBy !== undefined ? { exemptBy: d.exemptBy } : {}),
    reasons: d.reasons,
    warnings: a?.warnings ?? [],
    heat,
    rules,
    ...(headroom ? { headroom } : {}),
    penalties: {
      ...(d.pending && d.pending.pods > 0 ? { burstGuard: d.pending } : {}),
      limits: d.reasons.filter((r) => r.code === "limit_overcommit"),
      adjustments: (d.adjustments ?? []).map(({ rule, points, detail }) => ({ rule, points, ...(detail !== undefined ? { detail } : {}) })),
    },
    ...(baseScore !== undefined ? { baseScore } : {}),
    score: d.score,
  };
}

/** The first mapping rule, in the configured order, that finds the decision's VM (the rule `mapNodeToVm` used). */
function matchedRule(node: NodeIdentity, vm: VmView, ctx: PlacementContext, vms: VmIndex): NodeMappingRule | undefined {
  const known = ctx.cluster?.view.nodes.get(node.name);
  const identity = !node.providerID && !node.systemUUID && known ? known : node;
  return ctx.policy.nodeMapping.find((rule) => mapNodeToVm(identity, vms, [rule]) === vm);
}

function ruleChecks(
  host: HostView,
  vm: VmView | undefined,
  rejections: readonly Reason[],
  warnings: readonly Reason[],
  ctx: PlacementContext,
  ageS: number | undefined,
  judged: boolean,
): RuleCheck[] {
  const t = ctx.policy.thresholds;
  const m = host.metrics;
  const statusOf = (scope: "host" | "vm", metric: string, value: unknown): RuleCheck["status"] => {
    const code = scope === "host" ? "host_metric" : "vm_metric";
    const hit = (r: Reason) => r.code === code && r.metric === metric;
    if (rejections.some(hit)) return "reject";
    if (warnings.some(hit)) return "warn";
    // Stale or missing data: the metric rules were not applied, whatever the old values say.
    return value === undefined || !judged ? "unknown" : "ok";
  };
  const age = ageS !== undefined ? { ageS } : {};
  const vmAge = vm?.metrics && ctx.nowMs >= vm.metrics.sampledAtMs ? { ageS: Math.round((ctx.nowMs - vm.metrics.sampledAtMs) / 1000) } : {};
  const numeric = (rule: HostRule | VmRule, value: number | undefined): RuleCheck | undefined => {
    const threshold = rejectLevel(rule, t);
    if (threshold === undefined) return undefined;
    const warnAt = warnLevel(rule, t);
    return {
      scope: rule.scope,
      metric: rule.metric,
      value: value === undefined ? undefined : round1(value),
      unit: rule.unit,
      op: rule.op,
      threshold,
      ...(warnAt !== undefined ? { warnAt: round1(warnAt) } : {}),
      status: statusOf(rule.scope, rule.metric, value),
      ...(rule.scope === "host" ? age : vmAge),
    };
  };
  const checks: RuleCheck[] = [];
  const add = (check: RuleCheck | undefined) => check && checks.push(check);
  for (const rule of HOST_METRIC_RULES) add(numeric(rule, m?.[rule.field]));
  checks.push({
    scope: "host",
    metric: memoryState.metric,
    value: m?.memState,
    unit: memoryState.unit,
    op: memoryState.op,
    threshold: memoryState.reject.join("|"),
    warnAt: memoryState.warn.join("|"),
    status: statusOf("host", memoryState.metric, m?.memState),
    ...age,
  });
  if (vm) for (const rule of VM_METRIC_RULES) add(numeric(rule, vm.metrics?.[rule.field]));
  return checks;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
