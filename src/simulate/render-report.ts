import type { World } from "./build-world.js";
import type { RunResult } from "./figures.js";
import type { SimulationSummary } from "./run-simulation.js";

const BAR_WIDTH = 40;

/** report.md: setup, the per-strategy table, text bars, the comparison and the charts. */
export function renderReport(world: World, seed: number, results: readonly RunResult[], summary: SimulationSummary, scenarioPath: string): string {
  const s = world.scenario;
  const lines: string[] = [];
  lines.push(`# hvx simulate: ${s.name}`, "");
  if (s.description) lines.push(s.description.trim(), "");
  lines.push(
    `Seed ${seed}; ${s.durationHours} h at ${world.stepSeconds} s steps (${world.steps} steps); metrics reach the strategies ${s.pollIntervalSeconds} s late.`,
    `${world.hosts.count} ESXi hosts, ${world.nodes.count} node VMs, ${world.vms.count - world.nodes.count} non-Kubernetes VMs, ${world.pods.count} pods` +
      ` (oversell ratio cpu ${s.oversell.cpuRatio}, memory ${s.oversell.memoryRatio}).`,
    "",
    `Regenerate: \`npx hvx simulate --scenario ${scenarioPath} --seed ${seed} --out <dir>\`. The model and every formula: docs/simulation.md.`,
    "",
  );
  lines.push(...headlineTable(summary), "");
  lines.push("## Pod-hours on contended hosts (host or VM CPU ready >= 5 %)", "", "```");
  const maxContended = Math.max(0, ...results.map((r) => r.figures.contendedPodSeconds));
  for (const r of results) lines.push(`${r.strategy.padEnd(14)} ${bar(r.figures.contendedPodSeconds, maxContended)} ${fmt(r.figures.contendedPodSeconds / 3600, 1)}`);
  lines.push("```", "");
  lines.push("## hvx against the others", "", ...comparison(results), "");
  lines.push(
    "## Charts",
    "",
    "![Hottest host CPU ready % over time](host-ready.svg)",
    "",
    "![Cumulative contended pod-hours](cumulative-contention.svg)",
    "",
    "![Per-strategy figures](strategies.svg)",
    "",
  );
  lines.push("## Other figures", "", "| strategy | bindings | running at end | max evictions of one pod | p99 host ready % | unschedulable attempts |", "|---|---:|---:|---:|---:|---:|");
  for (const r of results) {
    const f = r.figures;
    lines.push(`| ${r.strategy} | ${f.bindings} | ${f.runningPodsAtEnd} | ${f.maxEvictionsOfOnePod} | ${fmt(f.p99HostReadyPercent, 2)} | ${f.unschedulableAttempts} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** The headline table (also what the README shows for noisy-neighbours). */
export function headlineTable(summary: SimulationSummary): string[] {
  const out = [
    "| strategy | contended pod-hours | p99 VM ready % | balloon GiB·s | swap GiB·s | evictions | longest cascade | pending | placed | mean host CPU % |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const [name, f] of Object.entries(summary.strategies)) {
    out.push(
      `| ${name} | ${fmt(f.contendedPodSeconds / 3600, 1)} | ${fmt(f.p99VmReadyPercent, 2)} | ${fmt(f.balloonGiBSeconds, 0)} | ${fmt(f.swapGiBSeconds, 0)} | ${f.evictions} | ${f.longestCascade} | ${f.pendingPods} | ${f.placedPods} | ${fmt(f.meanHostCpuUtilPercent, 1)} |`,
    );
  }
  return out;
}

function comparison(results: readonly RunResult[]): string[] {
  const by = new Map(results.map((r) => [r.strategy, r.figures]));
  const hvx = by.get("hvx");
  if (!hvx) return [];
  const out: string[] = [];
  for (const other of ["default", "vm-load-aware"]) {
    const o = by.get(other);
    if (!o) continue;
    const cut = o.contendedPodSeconds > 0 ? (1 - hvx.contendedPodSeconds / o.contendedPodSeconds) * 100 : 0;
    const placed = o.placedPods > 0 ? (hvx.placedPods / o.placedPods) * 100 : 100;
    out.push(`- against \`${other}\`: contended pod-seconds ${o.contendedPodSeconds > 0 ? `${cut >= 0 ? "cut by" : "up by"} ${fmt(Math.abs(cut), 1)} %` : "n/a (none under either)"}; pods placed ${fmt(placed, 1)} % of ${other}'s.`);
  }
  return out;
}

function bar(value: number, max: number): string {
  const n = max > 0 ? Math.round((value / max) * BAR_WIDTH) : 0;
  return `${"█".repeat(n)}${" ".repeat(BAR_WIDTH - n)}`;
}

function fmt(v: number, digits: number): string {
  return v.toFixed(digits);
}
