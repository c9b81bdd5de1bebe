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
  /**
   * The last request's nodes, not yet in `nodes`: kube-scheduler sends the same candidates
   * request after request, and comparing a list with the last one costs far less than updating
   * every node, so a list joins `nodes` only when another list arrives or the nodes are read.
   */
  private latest: readonly NodeIdentity[] | undefined;

  constructor(
    private readonly max = RECENT_NODES_MAX,
    /** Whether the nodes are wanted now: not while /debug/nodes lists the informer's cache instead. */
    private readonly wanted: () => boolean = () => true,
  ) {}

  /** Called with every request's nodes (hundreds to thousands). */
  saw(nodes: readonly NodeIdentity[]): void {
    if (!this.wanted()) return;
    if (this.latest === undefined || (this.latest !== nodes && !sameIdentities(this.latest, nodes))) this.fold();
    this.latest = nodes;
  }

  list(): NodeIdentity[] {
    this.fold();
    return [...this.nodes.values()].map((e) => e.node).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The latest list into `nodes`: an update in place per node, no re-insertion; over the
   * maximum, the least recently seen are forgotten in one pass, down to nine tenths of it, so
   * that pass is rare.
   */
  private fold(): void {
    const nodes = this.latest ?? [];
    this.latest = undefined;
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

  private forgetOldest(count: number): void {
    const oldest = [...this.nodes.entries()].sort((a, b) => a[1].seq - b[1].seq).slice(0, count);
    for (const [name] of oldest) this.nodes.delete(name);
  }
}

function sameIdentities(a: readonly NodeIdentity[], b: readonly NodeIdentity[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.providerID !== y.providerID || x.systemUUID !== y.systemUUID) return false;
  }
  return true;
}
