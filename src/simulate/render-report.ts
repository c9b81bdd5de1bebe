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
  lines.push(
    "Contended: the pod's own node VM had CPU ready >= 5 % per vCPU in that 20 s step (worth watching); severe: >= 10 % (a problem). docs/simulation.md section 8.",
    "",
  );
  lines.push("## Pod-hours on contended node VMs (own CPU ready >= 5 %)", "", "```");
  const maxContended = Math.max(0, ...results.map((r) => r.figures.contendedPodSeconds));
  for (const r of results) lines.push(`${r.strategy.padEnd(14)} ${bar(r.figures.contendedPodSeconds, maxContended)} ${fmt(r.figures.contendedPodSeconds / 3600, 1)}`);
  lines.push("```", "");
  lines.push("## Pod-hours on severely contended node VMs (own CPU ready >= 10 %)", "", "```");
  const maxSevere = Math.max(0, ...results.map((r) => r.figures.severeContendedPodSeconds));
  for (const r of results) lines.push(`${r.strategy.padEnd(14)} ${bar(r.figures.severeContendedPodSeconds, maxSevere)} ${fmt(r.figures.severeContendedPodSeconds / 3600, 1)}`);
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
  lines.push(
    "## Other figures",
    "",
    "Host-contended pod-hours: the earlier definition (the node VM's or its host's ready % >= 5), kept for continuity.",
    "",
    "| strategy | host-contended pod-hours | bindings | running at end | max evictions of one pod | p99 host ready % | unschedulable attempts |",
    "|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const r of results) {
    const f = r.figures;
    lines.push(`| ${r.strategy} | ${fmt(f.hostContendedPodSeconds / 3600, 1)} | ${f.bindings} | ${f.runningPodsAtEnd} | ${f.maxEvictionsOfOnePod} | ${fmt(f.p99HostReadyPercent, 2)} | ${f.unschedulableAttempts} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** The headline table (also what the README shows for noisy-neighbours). */
export function headlineTable(summary: SimulationSummary): string[] {
  const out = [
    "| strategy | contended pod-hours (>= 5 %) | severe pod-hours (>= 10 %) | p99 VM ready % | balloon GiB·s | swap GiB·s | evictions | longest cascade | pending | placed | mean host CPU % |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const [name, f] of Object.entries(summary.strategies)) {
    out.push(
      `| ${name} | ${fmt(f.contendedPodSeconds / 3600, 1)} | ${fmt(f.severeContendedPodSeconds / 3600, 1)} | ${fmt(f.p99VmReadyPercent, 2)} | ${fmt(f.balloonGiBSeconds, 0)} | ${fmt(f.swapGiBSeconds, 0)} | ${f.evictions} | ${f.longestCascade} | ${f.pendingPods} | ${f.placedPods} | ${fmt(f.meanHostCpuUtilPercent, 1)} |`,
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
    const placed = o.placedPods > 0 ? (hvx.placedPods / o.placedPods) * 100 : 100;
    out.push(
      `- against \`${other}\`: contended pod-seconds ${change(hvx.contendedPodSeconds, o.contendedPodSeconds)}; severe ${change(hvx.severeContendedPodSeconds, o.severeContendedPodSeconds)}; pods placed ${fmt(placed, 1)} % of ${other}'s.`,
    );
  }
  return out;
}

/** "cut by 12.3 %", "up by 4.0 %", or "n/a (none under either)" for hvx's figure against another's. */
function change(hvx: number, other: number): string {
  if (other <= 0) return hvx > 0 ? "up from none" : "n/a (none under either)";
  const cut = (1 - hvx / other) * 100;
  return `${cut >= 0 ? "cut by" : "up by"} ${fmt(Math.abs(cut), 1)} %`;
}

function bar(value: number, max: number): string {
  const n = max > 0 ? Math.round((value / max) * BAR_WIDTH) : 0;
  return `${"█".repeat(n)}${" ".repeat(BAR_WIDTH - n)}`;
}

function fmt(v: number, digits: number): string {
  return v.toFixed(digits);
}
