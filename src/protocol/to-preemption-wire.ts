import type { ParsedPreemptionArgs } from "./parse-preemption-args.js";
import type { ExtenderPreemptionResult, MetaVictimsWire } from "./preemption-wire.js";

/**
 * ExtenderPreemptionResult for the nodes kept, always as MetaVictims (what kube-scheduler
 * expects back in both modes), each with its victims exactly as sent: same UIDs, same order,
 * same NumPDBViolations. Names not in the request are ignored, so the reply never holds a node
 * or a UID kube-scheduler cannot map back.
 */
export function toPreemptionResultWire(request: ParsedPreemptionArgs, kept: Iterable<string>): ExtenderPreemptionResult {
  const keep = new Set(kept);
  // fromEntries defines own properties, so no node name can reach a prototype.
  const entries = request.candidates
    .filter((c) => keep.has(c.node))
    .map((c): [string, MetaVictimsWire] => [c.node, { Pods: c.victimUids.map((UID) => ({ UID })), NumPDBViolations: c.numPDBViolations }]);
  return { NodeNameToMetaVictims: Object.fromEntries(entries) };
}

/** Every candidate unchanged: the fail-open answer when hvx cannot judge. */
export function allCandidatesWire(request: ParsedPreemptionArgs): ExtenderPreemptionResult {
  return toPreemptionResultWire(
    request,
    request.candidates.map((c) => c.node),
  );
}
