import type { NodeIdentity } from "../model/node.js";
import { ageSeconds } from "./assess-host.js";
import { CappedMap, MAX_ENTRIES_PER_TABLE } from "./capped-map.js";

/**
 * One pod key's decisions, kept per node for one placement index (one snapshot pair and
 * policy). A decision depends on the clock only through the whole-second ages of its host's
 * sample, its host's inventory entry and its VM's sample (reasons print them): it is kept with
 * the span of time in which all three ages stay what they were, so that answering it again is
 * one lookup and two comparisons. The span is 1 ms narrower on each side than the ages'
 * rounding allows (floating-point rounding); within 1 ms of its edges the ages are compared.
 *
 * A node sent with a providerID or systemUUID (full `Nodes` mode) is mapped by them: its
 * decision is answered only to the same name, providerID and systemUUID.
 */
export class KeptDecisions<D> {
  /** By node name as requests send it: capped. */
  private readonly byNode = new CappedMap<string, Kept<D>>(MAX_ENTRIES_PER_TABLE);

  /** Nodes with a kept decision. */
  get size(): number {
    return this.byNode.size;
  }
  /** Every pod set an entry was kept with (one per host), in the order first kept; for the last pod asked about, those holding it. */
  private readonly countedSets = new Set<ReadonlySet<string>>();
  private readonly countedList: ReadonlySet<string>[] = [];
  private holding: { readonly uid: string; checked: number; readonly sets: ReadonlySet<string>[] } | undefined;

  /**
   * The decision kept for `node`, if `nowMs` is inside its span and `uid` (the pod being
   * scheduled; "" for none) is not among the pods counted where it was decided: a pod already
   * counted on the node or its host is decided under another key.
   */
  get(node: NodeIdentity, nowMs: number, uid: string): D | undefined {
    const kept = this.byNode.get(node.name);
    if (kept === undefined || kept.providerID !== node.providerID || kept.systemUUID !== node.systemUUID) return undefined;
    if ((nowMs < kept.fromMs || nowMs >= kept.untilMs) && !sameAges(kept, nowMs)) return undefined;
    if (uid !== "" && kept.counted !== undefined && this.counts(kept.counted, uid)) return undefined;
    return kept.decision;
  }

  /**
   * `counted.has(uid)`, asked of every set once per pod (and again when sets were added): a pod
   * being scheduled is counted nowhere, so its candidates skip a lookup each in their host's set.
   */
  private counts(counted: ReadonlySet<string>, uid: string): boolean {
    let holding = this.holding;
    if (holding === undefined || holding.uid !== uid) this.holding = holding = { uid, checked: 0, sets: [] };
    // Sets kept since the last ask are checked once each.
    for (; holding.checked < this.countedList.length; holding.checked++) {
      const set = this.countedList[holding.checked]!;
      if (set.has(uid)) holding.sets.push(set);
    }
    return holding.sets.length > 0 && holding.sets.includes(counted);
  }

  private countedWith(counted: ReadonlySet<string> | undefined): void {
    if (counted === undefined || this.countedSets.has(counted)) return;
    this.countedSets.add(counted);
    this.countedList.push(counted);
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
    let fromMs = Number.NEGATIVE_INFINITY;
    let untilMs = Number.POSITIVE_INFINITY;
    for (const t of times) {
      if (t === undefined) continue;
      const age = ageSeconds(t, nowMs);
      // ageSeconds rounds to the nearest second and never goes below 0.
      if (age > 0) fromMs = Math.max(fromMs, t + age * 1000 - 500 + 1);
      untilMs = Math.min(untilMs, t + age * 1000 + 500 - 1);
    }
    this.countedWith(counted);
    const { providerID, systemUUID } = node;
    this.byNode.set(node.name, { providerID, systemUUID, fromMs, untilMs, times, keptAtMs: nowMs, counted, decision });
  }

  /** Takes over `from`'s entry for `name` as it stands (an index derived from `from`'s, where nothing it depends on changed). */
  adopt(name: string, from: KeptDecisions<D>): void {
    const kept = from.byNode.get(name);
    if (kept === undefined) return;
    this.countedWith(kept.counted);
    this.byNode.set(name, kept);
  }
}

interface Kept<D> {
  readonly providerID: string | undefined;
  readonly systemUUID: string | undefined;
  readonly fromMs: number;
  readonly untilMs: number;
  readonly times: readonly (number | undefined)[];
  readonly keptAtMs: number;
  readonly counted: ReadonlySet<string> | undefined;
  readonly decision: D;
}

/** Whether every age is still what it was (near the span's edges, where the span alone is not trusted). */
function sameAges(kept: Kept<unknown>, nowMs: number): boolean {
  if (nowMs < kept.fromMs - 1 || nowMs >= kept.untilMs + 1) return false;
  return kept.times.every((t) => t === undefined || ageSeconds(t, nowMs) === ageSeconds(t, kept.keptAtMs));
}
