/**
 * Entries per table whose keys come from requests or the clock: well above one 5000-candidate
 * request's working set, so that a request never evicts its own entries.
 */
export const MAX_ENTRIES_PER_TABLE = 20_000;

/**
 * A Map that holds at most `maxEntries`: adding a new key when full first empties it. For
 * per-snapshot tables whose keys come from requests (node names, a pod's limits, its lifetime)
 * or from the clock (a reason list per sample age), which would otherwise grow for as long as
 * the snapshot lives (a vCenter outage keeps one inventory for hours). Emptied whole, not one
 * oldest key at a time: a Map's first live key is found past every deleted one, so evicting in
 * insertion order costs O(deleted) per eviction under steady churn.
 */
export class CappedMap<K, V> extends Map<K, V> {
  constructor(readonly maxEntries: number) {
    super();
    if (!(maxEntries >= 1)) throw new RangeError(`CappedMap needs maxEntries >= 1, got ${maxEntries}`);
  }

  override set(key: K, value: V): this {
    if (this.size >= this.maxEntries && !this.has(key)) this.clear();
    return super.set(key, value);
  }
}
