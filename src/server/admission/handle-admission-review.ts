import type { Logger } from "../../observability/logger.js";
import type { AdmissionMetrics } from "../../observability/admission-metrics.js";
import { buildOversellPatch, type JsonPatchOp } from "../../oversell/build-oversell-patch.js";
import { decideOversell } from "../../oversell/decide-oversell.js";
import { decideEffectiveRatios } from "../../oversell/effective-ratios.js";
import type { FleetView } from "../../oversell/fleet-view.js";
import type { OversellPolicy } from "../../oversell/oversell-policy.js";
import { type PodShape, podShapeProblem } from "../../oversell/pod-shape.js";
import { type AdmissionReviewRequest, parseAdmissionReviewText, toAdmissionResponseWire } from "../../protocol/admission-review.js";

export interface AdmissionContext {
  readonly policy: OversellPolicy;
  readonly ownNamespace: string;
  /**
   * The fleet the stacked cap and the hot-host brake are computed from: the current one, or
   * the last known while vCenter data is missing or stale (`LastKnownFleet`). Undefined
   * before any host data: then nothing is oversold.
   */
  readonly fleet: () => FleetView | undefined;
  readonly namespaceLabels?: (namespace: string) => Readonly<Record<string, string>> | undefined;
  readonly log: Logger;
  readonly metrics: AdmissionMetrics;
  /** Milliseconds, for the handling-time metric only. */
  readonly clock: () => number;
  /** `observe` (`admission.mode`): never patch; warn with the patch that would have been applied. Default enforce. */
  readonly mode?: "enforce" | "observe";
  /** Counts `hvx_shadow_decisions_total{verb="mutate"}` in observe mode. */
  readonly shadow?: { countShadow(verb: string, verdict: string, reason: string): void };
}

/** A warning longer than this may be cut by the API server; longer patch values are shortened. */
const WARNING_MAX_CHARS = 256;

export interface AdmissionReply {
  readonly status: 200 | 400;
  readonly contentType: "application/json" | "text/plain; charset=utf-8";
  readonly body: string;
}

export const INTERNAL_ERROR_WARNING = "hvx: oversell skipped after an internal error; pod admitted unchanged";

/**
 * Handles one `POST /mutate` body. Only pod CREATE is mutated; anything else is allowed
 * unchanged. Malformed review -> 400 with the reason as text. Any error while deciding ->
 * allowed unchanged with a warning and the `error` outcome: this never answers 500 and
 * never denies. Dry runs are answered the same way (the decision has no side effects) but
 * do not add to the removed-resources counters.
 */
export function handleAdmissionReview(bodyText: string, ctx: AdmissionContext): AdmissionReply {
  const startedMs = ctx.clock();
  const parsed = parseAdmissionReviewText(bodyText);
  if (!parsed.ok) {
    ctx.metrics.countReview("malformed");
    ctx.log.warn({ problem: parsed.message }, "admission: malformed review");
    observe(ctx, startedMs);
    return { status: 400, contentType: "text/plain; charset=utf-8", body: `${parsed.message}\n` };
  }
  const review = parsed.review;
  let patch: JsonPatchOp[] = [];
  let warnings: readonly string[] = [];
  try {
    ({ patch, warnings } = mutate(review, ctx));
    if (ctx.mode === "observe") ({ patch, warnings } = observeOnly(review, patch, warnings, ctx));
    ctx.metrics.countReview(patch.length > 0 ? "patched" : "unchanged");
  } catch (err) {
    patch = [];
    warnings = [INTERNAL_ERROR_WARNING];
    ctx.metrics.countReview("error");
    ctx.log.error({ uid: review.request.uid, err: errorText(err) }, "admission: internal error, pod admitted unchanged");
  }
  const body = JSON.stringify(toAdmissionResponseWire(review, { patch, warnings }));
  observe(ctx, startedMs);
  return { status: 200, contentType: "application/json", body };
}

function mutate(review: AdmissionReviewRequest, ctx: AdmissionContext): { patch: JsonPatchOp[]; warnings: readonly string[] } {
  const r = review.request;
  const isPodCreate =
    r.operation === "CREATE" && r.resource.group === "" && r.resource.resource === "pods" && !r.subResource && r.kind.kind === "Pod";
  if (!isPodCreate) return { patch: [], warnings: [] };
  const problem = podShapeProblem(r.object);
  if (problem !== undefined) {
    ctx.log.warn({ uid: r.uid, problem }, "admission: pod not readable, admitted unchanged");
    return { patch: [], warnings: [`hvx: oversell skipped (${problem})`] };
  }
  const pod = r.object as PodShape;
  const namespace = r.namespace || pod.metadata?.namespace || "default";
  const fleet = ctx.fleet();
  const labels = ctx.namespaceLabels?.(namespace);
  const decision = decideOversell({ pod, namespace, policy: ctx.policy, ownNamespace: ctx.ownNamespace, namespaceLabels: labels, fleet });
  ctx.metrics.setEffectiveRatios(
    decideEffectiveRatios(
      {
        cpu: { ratio: ctx.policy.cpuRatio, source: "default" },
        memory: { ratio: ctx.policy.memoryRatio, source: "default" },
        warnings: [],
      },
      fleet,
      ctx.policy,
    ),
  );
  const podName = pod.metadata?.name || pod.metadata?.generateName || "";
  if (decision.kind === "skip") {
    ctx.log.debug({ uid: r.uid, namespace, pod: podName, reason: decision.reason.code }, "admission: pod not scaled");
    return { patch: [], warnings: decision.warnings };
  }
  if (!r.dryRun) ctx.metrics.countRemoved(namespace, Number(decision.removedCpuMilli), Number(decision.removedMemoryBytes));
  ctx.log.info(
    {
      uid: r.uid,
      namespace,
      pod: podName,
      dryRun: r.dryRun === true,
      cpuRatio: decision.ratios.cpu.ratio,
      memoryRatio: decision.ratios.memory.ratio,
      removedCpuMilli: Number(decision.removedCpuMilli),
      removedMemoryBytes: Number(decision.removedMemoryBytes),
    },
    "admission: pod requests scaled",
  );
  return { patch: buildOversellPatch(pod, decision), warnings: decision.warnings };
}

/**
 * Observe mode: the pod is admitted unchanged and the response warns (kubectl prints it) with
 * the patch enforce mode would have applied, one warning per operation.
 */
function observeOnly(
  review: AdmissionReviewRequest,
  patch: JsonPatchOp[],
  warnings: readonly string[],
  ctx: AdmissionContext,
): { patch: JsonPatchOp[]; warnings: readonly string[] } {
  ctx.shadow?.countShadow("mutate", patch.length > 0 ? "patch" : "unchanged", patch.length > 0 ? "oversell" : "none");
  if (patch.length === 0) return { patch, warnings };
  ctx.log.debug({ uid: review.request.uid, ops: patch.length }, "admission: observe mode, patch not applied");
  const head = `hvx: admission.mode is observe: pod admitted unchanged; enforce would have applied ${patch.length} JSON Patch operation(s):`;
  return { patch: [], warnings: [...warnings, head, ...patch.map(patchOpText)] };
}

function patchOpText(op: JsonPatchOp): string {
  const text = `hvx: would ${op.op} ${op.path} = ${JSON.stringify(op.value)}`;
  return text.length <= WARNING_MAX_CHARS ? text : `${text.slice(0, WARNING_MAX_CHARS - 1)}…`;
}

function observe(ctx: AdmissionContext, startedMs: number): void {
  ctx.metrics.observeHandlingSeconds(Math.max(0, ctx.clock() - startedMs) / 1000);
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
