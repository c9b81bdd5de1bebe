/**
 * `decide` of every node, in order. `earlier` itself when every answer is its very object:
 * decisions are kept while nothing they depend on changes (src/placement/kept-decisions.ts), so
 * a request that asks again what the last one asked makes no new array.
 */
export function decideEach<N, D>(nodes: readonly N[], decide: (node: N) => D, earlier?: readonly D[]): readonly D[] {
  if (earlier !== undefined && earlier.length === nodes.length) {
    for (let i = 0; i < nodes.length; i++) {
      const d = decide(nodes[i]!);
      if (d !== earlier[i]) return [...earlier.slice(0, i), d, ...nodes.slice(i + 1).map(decide)];
    }
    return earlier;
  }
  const out: D[] = new Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) out[i] = decide(nodes[i]!);
  return out;
}
