import type { PodView } from "../model/cluster.js";

/**
 * How many entries of a cluster view's pod lists carry each uid. It answers "is this pod on any
 * node's list?" with one lookup, so that a request for a pod on none (a pending pod, the common
 * case) skips the uid sets of every candidate node and host. Patched by the lists a change touched.
 */
export class ListedUids {
  private readonly counts = new Map<string, number>();

  constructor(podsByNode: ReadonlyMap<string, readonly PodView[]>) {
    for (const pods of podsByNode.values()) this.count(pods, 1);
  }

  has(uid: string): boolean {
    return this.counts.has(uid);
  }

  /** From `before`'s lists of `nodes` to `after`'s (the lists of every other node being the same). */
  patch(nodes: Iterable<string>, before: ReadonlyMap<string, readonly PodView[]>, after: ReadonlyMap<string, readonly PodView[]>): void {
    for (const name of nodes) {
      this.count(before.get(name) ?? [], -1);
      this.count(after.get(name) ?? [], 1);
    }
  }

  private count(pods: readonly PodView[], by: 1 | -1): void {
    for (const { uid } of pods) {
      if (uid === "") continue;
      const n = (this.counts.get(uid) ?? 0) + by;
      if (n > 0) this.counts.set(uid, n);
      else this.counts.delete(uid);
    }
  }
}
