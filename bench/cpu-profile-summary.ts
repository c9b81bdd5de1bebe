import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * `node dist/bench/cpu-profile-summary.js DIR [TOP]`: self time by function over every
 * `.cpuprofile` in DIR (written by `node --cpu-prof`), as a share of all samples, and the
 * share of samples under a few callers of interest (inclusive time).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const dir = process.argv[2];
if (!dir) throw new Error("usage: cpu-profile-summary DIR [TOP]");
const top = Number(process.argv[3] ?? 25);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
  const p = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*\/(dist|node_modules)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
  for (const id of p.samples) {
    const n = byId.get(id)!;
    total++;
    const l = label(n);
    self.set(l, (self.get(l) ?? 0) + 1);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur)!.callFrame.functionName;
      if (!name || seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + 1);
    }
  }
}
const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
process.stdout.write(`${total} samples\nself time:\n`);
for (const [l, n] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(n)}  ${l}\n`);
process.stdout.write("inclusive:\n");
for (const [l, n] of [...inclusive.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${pct(n)}  ${l}\n`);
