import { OverlayMap } from "./overlay-map.js";

/**
 * A read-only set built from a previous one in the size of the change, as `OverlayMap.patched`
 * builds maps (an overlay while it stays small, else one flat copy). Neither may change afterwards.
 */
export class OverlaySet<T> implements ReadonlySet<T> {
  private constructor(private readonly members: ReadonlyMap<T, true>) {}

  /** `previous` without `removed` and with `added`; `maxChanges` as in `OverlayMap.patched`. */
  static patched<T>(previous: ReadonlySet<T>, removed: Iterable<T>, added: Iterable<T>, maxChanges: number): ReadonlySet<T> {
    const members =
      previous instanceof OverlaySet ? (previous as OverlaySet<T>).members : new Map([...previous].map((v) => [v, true] as const));
    const changes = new Map<T, true | undefined>();
    for (const v of removed) changes.set(v, undefined);
    for (const v of added) changes.set(v, true);
    return new OverlaySet(OverlayMap.patched(members, changes, maxChanges));
  }

  get size(): number {
    return this.members.size;
  }

  has(value: T): boolean {
    return this.members.has(value);
  }

  forEach(fn: (value: T, key: T, set: ReadonlySet<T>) => void, thisArg?: unknown): void {
    for (const v of this.values()) fn.call(thisArg, v, v, this);
  }

  values(): SetIterator<T> {
    return this.members.keys();
  }

  keys(): SetIterator<T> {
    return this.values();
  }

  *entries(): SetIterator<[T, T]> {
    for (const v of this.values()) yield [v, v];
  }

  [Symbol.iterator](): SetIterator<T> {
    return this.values();
  }
}
