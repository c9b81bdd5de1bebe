/**
 * The last reply built from a request's decisions, answered again while a later request's
 * decisions are the very same objects in the same order under the same snapshot index. Kept
 * decisions (src/placement/kept-decisions.ts) make them so while nothing they depend on
 * changes: pods of one replica group, a pod's retries, and every pod without a cluster view
 * share them. What the reply says (the valve's outcome, the JSON text, the verdict tally) is a
 * pure function of those objects, so nothing is assumed: a single different object is a miss.
 */
export class ReplyMemo<T, D extends object = object> {
  private last: { readonly index: object; readonly decisions: readonly D[]; readonly value: T } | undefined;

  /** The last reply's decisions under `index`: what `decideEach` hands back when a request's are the same. */
  decisionsUnder(index: object): readonly D[] | undefined {
    return this.last?.index === index ? this.last.decisions : undefined;
  }

  get(index: object, decisions: readonly D[]): T | undefined {
    const last = this.last;
    if (last === undefined || last.index !== index || last.decisions.length !== decisions.length) return undefined;
    if (last.decisions === decisions) return last.value;
    for (let i = 0; i < decisions.length; i++) if (last.decisions[i] !== decisions[i]) return undefined;
    return last.value;
  }

  set(index: object, decisions: readonly D[], value: T): T {
    this.last = { index, decisions, value };
    return value;
  }
}
