import type { NodeIdentity } from "../model/node.js";

/** Nodes remembered at most (oldest forgotten first). */
export const RECENT_NODES_MAX = 10_000;

/**
 * The nodes kube-scheduler sent in recent extender requests, for `GET /debug/nodes` when hvx
 * has no informer cache. In names mode (nodeCacheCapable) only names arrive.
 */
export class RecentNodes {
  /** Each node with the sequence number of the request position it was last seen at. */
  private readonly nodes = new Map<string, { node: NodeIdentity; seq: number }>();
  private seq = 0;

  constructor(private readonly max = RECENT_NODES_MAX) {}

  /**
   * Called with every request's nodes (hundreds to thousands): an update in place per node, no
   * re-insertion; over the maximum, the least recently seen are forgotten in one pass, down to
   * nine tenths of it, so that pass is rare.
   */
  saw(nodes: readonly NodeIdentity[]): void {
    for (const node of nodes) {
      const known = this.nodes.get(node.name);
      if (known) {
        known.node = node;
        known.seq = ++this.seq;
      } else {
        this.nodes.set(node.name, { node, seq: ++this.seq });
      }
    }
    if (this.nodes.size > this.max) this.forgetOldest(this.nodes.size - (this.max - Math.floor(this.max / 10)));
  }

  list(): NodeIdentity[] {
    return [...this.nodes.values()].map((e) => e.node).sort((a, b) => a.name.localeCompare(b.name));
  }

  private forgetOldest(count: number): void {
    const oldest = [...this.nodes.entries()].sort((a, b) => a[1].seq - b[1].seq).slice(0, count);
    for (const [name] of oldest) this.nodes.delete(name);
  }
}
