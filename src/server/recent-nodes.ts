import type { NodeIdentity } from "../model/node.js";

/** Nodes remembered at most (oldest forgotten first). */
export const RECENT_NODES_MAX = 10_000;

/**
 * The nodes kube-scheduler sent in recent extender requests, for `GET /debug/nodes` when hvx
 * has no informer cache. In names mode (nodeCacheCapable) only names arrive.
 */
export class RecentNodes {
  private readonly nodes = new Map<string, NodeIdentity>();

  constructor(private readonly max = RECENT_NODES_MAX) {}

  saw(nodes: readonly NodeIdentity[]): void {
    for (const node of nodes) {
      this.nodes.delete(node.name);
      this.nodes.set(node.name, node);
      if (this.nodes.size > this.max) this.nodes.delete(this.nodes.keys().next().value as string);
    }
  }

  list(): NodeIdentity[] {
    return [...this.nodes.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
