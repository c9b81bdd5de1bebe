/**
 * One frozen object (or string) per distinct value, keyed by its text: a cluster's pods come from
 * a few templates, so 50 000 pod views need a few hundred amounts and eviction facts, not 250 000
 * objects. Holds at most `maxEntries` values and starts afresh when full, so a cluster of
 * distinct values costs a map of bounded size and no more than one copy per pod, as without it.
 * A key longer than `MAX_KEY_CHARS` (text from a pod, e.g. an annotation) is not kept: its value
 * is returned as it is, so what stays after the pod is gone is bounded in bytes too.
 */
export const MAX_KEY_CHARS = 512;

export class SharedValues<T> {
  private readonly byKey = new Map<string, T>();

  constructor(private readonly maxEntries: number) {}

  /** The value kept for `key`, or `value` (frozen) kept from now on. */
  shared(key: string, value: T): T {
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    if (key.length > MAX_KEY_CHARS) return value;
    if (this.byKey.size >= this.maxEntries) this.byKey.clear();
    this.byKey.set(key, typeof value === "object" && value !== null ? Object.freeze(value) : value);
    return value;
  }

  get size(): number {
    return this.byKey.size;
  }
}
