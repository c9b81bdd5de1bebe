import type { NodeIdentity } from "../model/node.js";
import { ageSeconds } from "./assess-host.js";

/**
 * One pod key's decisions, kept per node for one placement index (one snapshot pair and
 * policy). A decision depends on the clock only through the whole-second ages of its host's
 * sample, its host's inventory entry and its VM's sample (reasons print them): it is kept with
 * the span of time in which all three ages stay what they were, so that answering it again is
 * one lookup and two comparisons. The span is 1 ms narrower on each side than the ages'
 * rounding allows, so that floating-point rounding at a boundary can only cost a recomputation.
 *
 * Nodes sent with a providerID or systemUUID are mapped per request and never kept.
 */
export class KeptDecisions<D> {
  private readonly byNode = new Map<string, Kept<D>>();

  /**
   * The decision kept for `node`, if `nowMs` is inside its span and `uid` (the pod being
   * scheduled; "" for none) is not among the pods counted where it was decided: a pod already
   * counted on the node or its host is decided under another key.
   */
  get(node: NodeIdentity, nowMs: number, uid: string): D | undefined {
    if (node.providerID !== undefined || node.systemUUID !== undefined) return undefined;
    const kept = this.byNode.get(node.name);
    if (kept === undefined || nowMs < kept.fromMs || nowMs >= kept.untilMs) return undefined;
    if (uid !== "" && kept.counted?.has(uid) === true) return undefined;
    return kept.decision;
  }

  /**
   * Keeps `decision` for `node` while the ages of `times` (epoch ms; undefined: no such
   * sample) stay what they are at `nowMs`. `counted`: the pods counted where the node is (its
   * host's, which include the node's own; the node's when it has no host), none of which the
   * decision is for.
   */
  keep(
    node: NodeIdentity,
    times: readonly (number | undefined)[],
    nowMs: number,
    counted: ReadonlySet<string> | undefined,
    decision: D,
  ): void {
    if (node.providerID !== undefined || node.systemUUID !== undefined) return;
    let fromMs = Number.NEGATIVE_INFINITY;
    let untilMs = Number.POSITIVE_INFINITY;
    for (const t of times) {
      if (t === undefined) continue;
      const age = ageSeconds(t, nowMs);
      // ageSeconds rounds to the nearest second and never goes below 0.
      if (age > 0) fromMs = Math.max(fromMs, t + age * 1000 - 500 + 1);
      untilMs = Math.min(untilMs, t + age * 1000 + 500 - 1);
    }
    if (!(nowMs >= fromMs && nowMs < untilMs)) return;
    this.byNode.set(node.name, { fromMs, untilMs, counted, decision });
  }
}

interface Kept<D> {
  readonly fromMs: number;
  readonly untilMs: number;
  readonly counted: ReadonlySet<string> | undefined;
  readonly decision: D;
}
