/**
 * A read-only map equal to `base` except for the keys of `changes`: a key mapped to a value
 * reads that value, a key mapped to `undefined` is absent. Building one costs the size of
 * `changes`, not of `base`: a cluster snapshot that differs in a few nodes' pod lists shares
 * the fleet-wide map instead of copying it. Neither map may change afterwards.
 *
 * Iteration follows `base`'s order, the changed values in place, then the added keys in
 * `changes`' order (what a copy of `base` with `set`/`delete` applied would give, except
 * that a deleted and re-added key keeps its place).
 */
export class OverlayMap<K, V> implements ReadonlyMap<K, V> {
  readonly size: number;

  constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly changes: ReadonlyMap<K, V | undefined>,
  ) {
    let size = base.size;
    for (const [k, v] of changes) {
      const before = base.has(k);
      if (v === undefined && before) size--;
      else if (v !== undefined && !before) size++;
    }
    this.size = size;
  }

  /**
   * `base` with `changes` applied, as an overlay while the overlay stays small, else as one
   * flat map (so that chains of snapshots never stack overlays: a lookup stays one or two
   * hash probes). `maxChanges` bounds what each later snapshot copies.
   */
  static patched<K, V>(previous: ReadonlyMap<K, V>, changes: ReadonlyMap<K, V | undefined>, maxChanges: number): ReadonlyMap<K, V> {
    const [base, carried] = previous instanceof OverlayMap ? [previous.base, previous.changes] : [previous, undefined];
    const merged = new Map<K, V | undefined>(carried);
    for (const [k, v] of changes) merged.set(k, v);
    if (merged.size <= maxChanges) return new OverlayMap(base, merged);
    const flat = new Map(base);
    for (const [k, v] of merged) {
      if (v === undefined) flat.delete(k);
      else flat.set(k, v);
    }
    return flat;
  }

  /**
   * The keys whose values differ between `a` and `b` (by identity), found among the overlaid
   * keys alone when both are overlays, at any depth, on the same plain map (or that map itself);
   * undefined when they are not, and only a full comparison can tell.
   */
  static differingKeys<K, V>(a: ReadonlyMap<K, V>, b: ReadonlyMap<K, V>): K[] | undefined {
    const overlaid = new Set<K>();
    const root = (map: ReadonlyMap<K, V>): ReadonlyMap<K, V> => {
      while (map instanceof OverlayMap) {
        for (const k of (map as OverlayMap<K, V>).changes.keys()) overlaid.add(k);
        map = (map as OverlayMap<K, V>).base;
      }
      return map;
    };
    if (root(a) !== root(b)) return undefined;
    return [...overlaid].filter((k) => a.get(k) !== b.get(k));
  }

  get(key: K): V | undefined {
    return this.changes.has(key) ? this.changes.get(key) : this.base.get(key);
  }

  has(key: K): boolean {
    return this.changes.has(key) ? this.changes.get(key) !== undefined : this.base.has(key);
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
  }

  *entries(): MapIterator<[K, V]> {
    for (const [k, v] of this.base) {
      if (!this.changes.has(k)) yield [k, v];
      else {
        const changed = this.changes.get(k);
        if (changed !== undefined) yield [k, changed];
      }
    }
    for (const [k, v] of this.changes) if (v !== undefined && !this.base.has(k)) yield [k, v];
  }

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}
