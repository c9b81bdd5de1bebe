import type { NodeIdentity } from "../model/node.js";
import { ageSeconds } from "./assess-host.js";
import { MAX_ENTRIES_PER_TABLE } from "./capped-map.js";

/**
 * One pod key's decisions, kept per node for one placement index (one snapshot pair and
 * policy). A decision depends on the clock only through the whole-second ages of its host's
 * sample, its host's inventory entry and its VM's sample: reasons print them, and an age past
 * `maxMetricAgeSeconds` takes hvx's opinion away. A decision with reasons is kept for the span
 * of time in which all three ages stay what they were; a pass without reasons (most nodes) for
 * as long as no age passes the maximum, since nothing it answers prints an age (`keep`'s
 * `untilStaleS`). Answering it again is one lookup and two comparisons. The span is 1 ms
 * narrower on each side than the ages' rounding allows (floating-point rounding); within 1 ms
 * of its edges the ages are compared.
 *
 * A node sent with a providerID or systemUUID (full `Nodes` mode) is mapped by them: its
 * decision is answered only to the same name, providerID and systemUUID.
 */
export class KeptDecisions<D> {
  /** By node name as requests send it: at most MAX_ENTRIES_PER_TABLE, emptied when full. */
  private readonly byNode = new Map<string, Kept<D>>();
  /** The names kept per host they were judged on, so that a host's change forgets its nodes alone. */
  private readonly namesOnHost = new Map<string, Set<string>>();

  /** Nodes with a kept decision. */
  get size(): number {
    return this.byNode.size;
  }

  /**
   * The decision kept for `node`, if `nowMs` is inside its span and `uid` (the pod being
   * scheduled; "" for none) is not among the pods counted where it was decided: a pod already
   * counted on the node or its host is decided under another key.
   */
  get(node: NodeIdentity, nowMs: number, uid: string): D | undefined {
    const kept = this.byNode.get(node.name);
    if (kept === undefined || kept.providerID !== node.providerID || kept.systemUUID !== node.systemUUID) return undefined;
    if ((nowMs < kept.fromMs || nowMs >= kept.untilMs) && !sameAges(kept, nowMs)) return undefined;
    if (uid !== "" && kept.counted?.has(uid)) return undefined;
    return kept.decision;
  }

  /**
   * Keeps `decision` for `node` while the ages of `times` (epoch ms; undefined: no such
   * sample) stay what they are at `nowMs`; with `untilStaleS` (a decision that prints no age),
   * while no age is past it. `hostId`: the host the node was judged on (none when unmapped).
   * `counted`: the pods counted where the node is (its host's, which include the node's own; the
   * node's when it has no host), none of which the decision is for.
   */
  keep(
    node: NodeIdentity,
    hostId: string | undefined,
    times: readonly (number | undefined)[],
    nowMs: number,
    counted: ReadonlySet<string> | undefined,
    decision: D,
    untilStaleS?: number,
  ): void {
    let fromMs = Number.NEGATIVE_INFINITY;
    let untilMs = Number.POSITIVE_INFINITY;
    for (const t of times) {
      if (t === undefined) continue;
      const age = ageSeconds(t, nowMs);
      if (untilStaleS !== undefined) {
        // Ages only grow with the clock: the decision stands until the first of them rounds past the maximum.
        untilMs = Math.min(untilMs, t + untilStaleS * 1000 + 500 - 1);
        continue;
      }
      if (age > 0) fromMs = Math.max(fromMs, t + age * 1000 - 500 + 1);
      untilMs = Math.min(untilMs, t + age * 1000 + 500 - 1);
    }
    const { providerID, systemUUID } = node;
    const before = this.byNode.get(node.name);
    if (before === undefined && this.byNode.size >= MAX_ENTRIES_PER_TABLE) {
      this.byNode.clear();
      this.namesOnHost.clear();
    }
    if (before?.hostId !== undefined && before.hostId !== hostId) this.namesOnHost.get(before.hostId)?.delete(node.name);
    this.byNode.set(node.name, { providerID, systemUUID, hostId, fromMs, untilMs, times, keptAtMs: nowMs, untilStaleS, counted, decision });
    if (hostId === undefined) return;
    let names = this.namesOnHost.get(hostId);
    if (!names) this.namesOnHost.set(hostId, (names = new Set()));
    names.add(node.name);
  }

  /** Forgets the decisions of the nodes named and of every node judged on the hosts named (their pods changed). */
  forget(nodes: Iterable<string>, hostIds: ReadonlySet<string>): void {
    for (const name of nodes) {
      const hostId = this.byNode.get(name)?.hostId;
      if (hostId !== undefined) this.namesOnHost.get(hostId)?.delete(name);
      this.byNode.delete(name);
    }
    for (const hostId of hostIds) {
      for (const name of this.namesOnHost.get(hostId) ?? []) this.byNode.delete(name);
      this.namesOnHost.delete(hostId);
    }
  }
}

interface Kept<D> {
  readonly providerID: string | undefined;
  readonly hostId: string | undefined;
  readonly systemUUID: string | undefined;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly times: readonly (number | undefined)[];
  readonly keptAtMs: number;
  readonly untilStaleS: number | undefined;
  readonly counted: ReadonlySet<string> | undefined;
  readonly decision: D;
}

/** Whether every age is still what it was, or none past the maximum (near the span's edges, where the span alone is not trusted). */
function sameAges(kept: Kept<unknown>, nowMs: number): boolean {
  if (nowMs < kept.fromMs - 1 || nowMs >= kept.untilMs + 1) return false;
  const { untilStaleS, keptAtMs } = kept;
  if (untilStaleS !== undefined) return kept.times.every((t) => t === undefined || ageSeconds(t, nowMs) <= untilStaleS);
  return kept.times.every((t) => t === undefined || ageSeconds(t, nowMs) === ageSeconds(t, keptAtMs));
}
