import { writeFileSync } from "node:fs";
import { BenchSkipped, type BenchFigure, type BenchRun } from "./figure.js";

/**
 * `npm run bench [-- --json FILE] [-- --only NAME,...]`: runs every benchmark in this process
 * (one core: Node's main thread), prints each figure with its target and PASS or MISS, and
 * optionally writes all figures as JSON. A miss is reported, never an exit status: the figures
 * move with the machine's load.
 */
const SUITES: Record<string, () => Promise<{ run: BenchRun }>> = {
  extender: () => import("./extender.bench.js"),
  "extender-http": () => import("./extender-http.bench.js"),
  mutate: () => import("./mutate.bench.js"),
  "poll-cycle": () => import("./poll-cycle.bench.js"),
  "informer-sync": () => import("./informer-sync.bench.js"),
  simulate: () => import("./simulate.bench.js"),
  "simulate-days": () => import("./simulate-days.bench.js"),
  "prometheus-source": () => import("./prometheus-source.bench.js"),
  "image-size": () => import("./image-size.bench.js"),
  "two-layers": () => import("./two-layers.bench.js"),
  "metrics-scrape": () => import("./metrics-scrape.bench.js"),
};

async function main(argv: string[]): Promise<number> {
  const jsonAt = argv.indexOf("--json");
  const jsonFile = jsonAt >= 0 ? argv[jsonAt + 1] : undefined;
  if (jsonAt >= 0 && !jsonFile) throw new Error("--json needs a file name");
  const onlyAt = argv.indexOf("--only");
  const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? "").split(",")) : undefined;
  const results: Record<string, BenchFigure[] | { error: string } | { skipped: string }> = {};
  let missed = 0;
  for (const [name, load] of Object.entries(SUITES)) {
    if (only && !only.has(name)) continue;
    process.stdout.write(`\n== ${name}\n`);
    try {
      const figures = await (await load()).run();
      results[name] = figures;
      for (const f of figures) {
        const verdict = f.ok === undefined ? "" : f.ok ? "  PASS" : "  MISS";
        if (f.ok === false) missed++;
        process.stdout.write(
          `${f.name.padEnd(58)} ${format(f.value).padStart(12)} ${f.unit.padEnd(20)}${f.target ? ` target ${f.target}` : ""}${verdict}\n`,
        );
      }
    } catch (err) {
      if (err instanceof BenchSkipped) {
        results[name] = { skipped: err.message };
        process.stdout.write(`  skipped: ${err.message}\n`);
        continue;
      }
      results[name] = { error: (err as Error).message };
      process.stdout.write(`  failed: ${(err as Error).stack ?? String(err)}\n`);
      missed++;
    }
  }
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ node: process.version, at: new Date().toISOString(), results }, null, 2)}\n`);
  process.stdout.write(`\n${missed === 0 ? "all targets met" : `${missed} target(s) missed or failed`}\n`);
  return 0;
}

function format(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(4);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
