import { join } from "node:path";

/** The files `hvx simulate` writes, report first. */
export const SIMULATION_FILES = ["report.md", "summary.json", "host-ready.svg", "cumulative-contention.svg", "strategies.svg"] as const;

/** What `hvx simulate` prints on stderr when it is done: where each file went. */
export function writtenFilesMessage(outDir: string): string {
  const lines = [`hvx simulate: wrote ${SIMULATION_FILES.length} files to ${outDir}/`];
  lines.push(`  ${join(outDir, "report.md")}   the report: start here (it links the charts)`);
  lines.push(`  ${join(outDir, "summary.json")}   the figures per strategy (also printed on stdout)`);
  for (const chart of SIMULATION_FILES.slice(2)) lines.push(`  ${join(outDir, chart)}`);
  lines.push(
    "  (strategy `oracle` is a clairvoyant reference that sees the future load, not a scheduler: each cut is also given as a share of its cut)",
  );
  return `${lines.join("\n")}\n`;
}
