import type { HeadroomTerm } from "../placement/score-host.js";
import type { NodeExplanation, RuleCheck } from "../placement/explain-node.js";
import type { PendingDemand } from "../placement/burst-guard.js";
import type { ScoreAdjustment } from "../placement/rules/kubernetes/index.js";
import { formatReason } from "./format-reason.js";

/** `POST /debug/explain` and `GET /debug/explain?pod=` answer this (hvx's own JSON, not a Kubernetes type). */
export interface ExplainReply {
  /** `namespace/name` of the pod judged. */
  readonly pod: string;
  /** Set when hvx has no vSphere data at all: why (the source's last error). */
  readonly sourceDown?: string;
  readonly nodes: readonly ExplainNodeWire[];
}

export interface ExplainNodeWire {
  readonly node: string;
  readonly mapping: { readonly rule?: string; readonly vm?: { id: string; name: string }; readonly host?: { id: string; name: string } };
  readonly verdict: "pass" | "reject";
  readonly unresolvable: boolean;
  readonly noOpinion: boolean;
  readonly exemptBy?: string;
  /** The reasons /filter rejects for (rejections), in detail (kube-scheduler gets their short form), or why hvx has no opinion. */
  readonly reasons: readonly string[];
  /** Short form of the rejections, e.g. `cpu ready 12% >= 10%, VM cpu ready 12% >= 10%`; absent when passed. */
  readonly why?: string;
  readonly warnings: readonly string[];
  readonly heat: string;
  readonly rules: readonly RuleCheck[];
  readonly headroom?: { readonly terms: readonly HeadroomTerm[]; readonly total: number | undefined };
  readonly penalties: {
    readonly burstGuard?: PendingDemand;
    readonly limits: readonly string[];
    readonly adjustments: readonly ScoreAdjustment[];
  };
  readonly baseScore?: number;
  readonly score: number;
}

export function toExplainWire(pod: string, explanations: readonly NodeExplanation[]): ExplainReply {
  return { pod, nodes: explanations.map(toNodeWire) };
}

function toNodeWire(e: NodeExplanation): ExplainNodeWire {
  const why = e.verdict === "reject" ? shortWhy(e) : undefined;
  return {
    node: e.node,
    mapping: e.mapping,
    verdict: e.verdict,
    unresolvable: e.unresolvable,
    noOpinion: e.noOpinion,
    ...(e.exemptBy !== undefined ? { exemptBy: e.exemptBy } : {}),
    reasons: e.reasons.map(formatReason),
    ...(why !== undefined ? { why } : {}),
    warnings: e.warnings.map(formatReason),
    heat: e.heat,
    rules: e.rules,
    ...(e.headroom ? { headroom: e.headroom } : {}),
    penalties: { ...e.penalties, limits: e.penalties.limits.map(formatReason) },
    ...(e.baseScore !== undefined ? { baseScore: e.baseScore } : {}),
    score: e.score,
  };
}

/** The rejected rules as `<metric> <value> <op> <threshold>`, comma-separated, else the first reason's text. */
function shortWhy(e: NodeExplanation): string | undefined {
  const rules = e.rules.filter((r) => r.status === "reject");
  if (rules.length > 0)
    return rules
      .map((r) => `${r.scope === "vm" ? "VM " : ""}${r.metric} ${withUnit(r.value, r.unit)} ${r.op} ${withUnit(r.threshold, r.unit)}`)
      .join(", ");
  const first = e.reasons[0];
  return first ? formatReason(first) : undefined;
}

function withUnit(v: number | string | undefined, unit: string): string {
  if (v === undefined) return "unknown";
  if (typeof v === "string") return v;
  return unit === "%" || unit === "" ? `${v}${unit}` : `${v} ${unit}`;
}
