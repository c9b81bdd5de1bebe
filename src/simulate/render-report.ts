import type { World } from "./build-world.js";
import type { ConfigChange } from "./config-changes.js";
import type { RunResult } from "./figures.js";
import type { RunKey, SimulationSummary, StrategyRuns, SummaryFigures } from "./run-simulation.js";
import type { ThresholdPolicy } from "../placement/index.js";
import { rebalanceLines } from "./rebalance-line.js";
import { ORACLE_NOTE, oracleShareText, renderAcrossSeeds } from "./render-across-seeds.js";
import { ORACLE } from "./strategy.js";
import { renderDrsAdvice } from "./render-drs-advice.js";
import { drsIntervalMinutes } from "./scenario.js";

const BAR_WIDTH = 40;
/** The twin's fixed contention levels (docs/simulation.md section 8). */
const CONTENDED_PERCENT = 5;
const SEVERE_PERCENT = 10;
const CASCADE_GAP_MINUTES = 5;

/** What the report says about the hvx configuration the run used. */
export interface ReportConfig {
  /** The `--config` file, or undefined for the production defaults. */
  readonly path?: string;
  /** The thresholds the hvx strategy used. */
  readonly thresholds: ThresholdPolicy;
  /** Keys that differ from the defaults (empty without `--config`). */
  readonly changes: readonly ConfigChange[];
}

/**
 * report.md, readable on its own: what the figures mean, the thresholds and hvx
 * configuration used, the model's limits, then the per-strategy tables, text bars,
 * the comparison and the charts. Pure: same inputs, same bytes.
 */
export function renderReport(
  world: World,
  seed: number,
  runs: readonly StrategyRuns[],
  summary: SimulationSummary,
  scenarioPath: string,
  config: ReportConfig,
): string {
  const s = world.scenario;
  const lines: string[] = [];
  lines.push(`# hvx simulate: ${s.name}`, "");
  if (s.description) lines.push(s.description.trim(), "");
  const configFlag = config.path !== undefined ? ` --config ${config.path}` : "";
  lines.push(
    `Seed ${seed}; ${s.durationHours} h at ${world.stepSeconds} s steps (${world.steps} steps); metrics reach the strategies ${s.pollIntervalSeconds} s late.`,
    `${world.hosts.count} ESXi hosts, ${world.nodes.count} node VMs, ${world.vms.count - world.nodes.count} non-Kubernetes VMs, ${world.pods.count} pods` +
      ` (oversell ratio cpu ${s.oversell.cpuRatio}, memory ${s.oversell.memoryRatio}).`,
    "",
    drsLine(world, runs),
    `A pod the scheduler binds appears in hvx's cluster view ${fmtNum(s.bindLatencySeconds)} s later (\`bindLatencySeconds\`).` +
      (world.skippedTraceRows > 0
        ? ` ${world.skippedTraceRows} trace ${world.skippedTraceRows === 1 ? "row was" : "rows were"} skipped (unparsable or zero capacity).`
        : ""),
    "",
    `Regenerate: \`npx hvx simulate --scenario ${scenarioPath} --seed ${seed}${seedsFlags(summary)} --out <dir>${configFlag}${drsFlag(runs)}\`. The model and every formula: docs/simulation.md.`,
    "",
  );
  if (summary.acrossSeeds) {
    lines.push(...renderAcrossSeeds(summary.acrossSeeds), "");
    const drs = renderDrsAdvice(world, summary.acrossSeeds);
    if (drs.length > 0) lines.push(...drs, "");
  }
  lines.push(`The tables below are seed ${seed} under the \`${summary.physics ?? "overflow"}\` physics.`, "");
  lines.push(...meaning(world, config.thresholds), "");
  lines.push(...configSection(config), "");
  lines.push(...limits(), "");
  for (const run of runs) lines.push(...runSection(run, summary, runs.length > 1), "");
  if (runs.length > 1) lines.push(...drsComparison(runs), "");
  lines.push(
    "## Charts",
    "",
    "![Hottest host at each step: CPU ready % per vCPU, the maximum over all hosts](host-ready.svg)",
    "",
    "![Cumulative contended pod-hours](cumulative-contention.svg)",
    "",
    "![Per-strategy figures, one panel per unit](strategies.svg)",
    "",
  );
  lines.push(
    "## Other figures",
    "",
    "| strategy | host-contended pod-hours | bindings | running at end | max evictions of one pod | p99 host ready % | unschedulable attempts | vMotions (DRS) | hvx evictions | per 100 pod-hours | pod-hours run |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const run of runs) {
    for (const r of run.results) {
      const f = r.figures;
      lines.push(
        `| ${runs.length > 1 ? `${r.strategy}, ${RUN_TITLES[run.key]}` : r.strategy} | ${fmt(f.hostContendedPodSeconds / 3600, 1)} | ${f.bindings} | ${f.runningPodsAtEnd} | ${f.maxEvictionsOfOnePod} | ${fmt(f.p99HostReadyPercent, 2)} | ${f.unschedulableAttempts} | ${f.vmotions} | ${f.hvxEvictions} | ${fmt(f.podHours > 0 ? (f.hvxEvictions / f.podHours) * 100 : 0, 2)} | ${fmt(f.podHours, 1)} |`,
      );
    }
  }
  lines.push("", ...rebalanceLines(world, runs));
  return `${lines.join("\n")}\n`;
}

const RUN_TITLES: Record<RunKey, string> = { "drs-off": "DRS off", "drs-on": "DRS on" };

function drsLine(world: World, runs: readonly StrategyRuns[]): string {
  const d = world.scenario.drs;
  const which = runs.map((r) => RUN_TITLES[r.key]).join(" and ");
  const model =
    d.model === "vm-score"
      ? `a vSphere 7-style model acting on VMs whose own ready reaches ${d.vmReadyPercent} %`
      : "host load standard deviation (vSphere 6.x)";
  const filters = d.costBenefit ? `MinGoodness ${d.minGoodness}, cost-benefit on` : `MinGoodness ${d.minGoodness}, cost-benefit off`;
  return `Every strategy is run with ${which}. DRS, when on: ${model}, migration threshold ${d.migrationThreshold}, every ${drsIntervalMinutes(d)} min, at most ${d.maxMovesPerHostPerPass} vMotions per source host per pass, ${filters}.`;
}

function seedsFlags(summary: SimulationSummary): string {
  const a = summary.acrossSeeds;
  if (!a) return "";
  const physics = Object.keys(a.physics);
  return ` --seeds ${a.seeds.length} --physics ${physics.length > 1 ? "both" : (physics[0] ?? "overflow")}`;
}

function drsFlag(runs: readonly StrategyRuns[]): string {
  if (runs.length !== 1) return "";
  return runs[0]!.key === "drs-on" ? " --drs on" : " --drs off";
}

/** One DRS setting's results: the headline table (whole run, then from day 2), the bars and hvx's comparison. */
function runSection(run: StrategyRuns, summary: SimulationSummary, named: boolean): string[] {
  const title = named ? `, ${RUN_TITLES[run.key]}` : ` (${RUN_TITLES[run.key]})`;
  const strategies = summary.runs[run.key]?.strategies ?? {};
  const results = run.results;
  const lines: string[] = [`## Results${title}`, "", ...headlineTable(strategies), ""];
  const day2 = Object.entries(strategies).filter(([, f]) => f?.fromDay2);
  if (day2.length > 0) {
    lines.push(`### From day 2 on${title}`, "", ...headlineTable(Object.fromEntries(day2.map(([k, f]) => [k, f!.fromDay2!]))), "");
  }
  lines.push(`### Pod-hours on contended node VMs (own CPU ready >= ${CONTENDED_PERCENT} %)${title}`, "", "```");
  const maxContended = Math.max(0, ...results.map((r) => r.figures.contendedPodSeconds));
  for (const r of results)
    lines.push(
      `${r.strategy.padEnd(14)} ${bar(r.figures.contendedPodSeconds, maxContended)} ${fmt(r.figures.contendedPodSeconds / 3600, 1)}`,
    );
  lines.push("```", "");
  lines.push(`### Pod-hours on severely contended node VMs (own CPU ready >= ${SEVERE_PERCENT} %)${title}`, "", "```");
  const maxSevere = Math.max(0, ...results.map((r) => r.figures.severeContendedPodSeconds));
  for (const r of results)
    lines.push(
      `${r.strategy.padEnd(14)} ${bar(r.figures.severeContendedPodSeconds, maxSevere)} ${fmt(r.figures.severeContendedPodSeconds / 3600, 1)}`,
    );
  lines.push("```", "");
  lines.push(`### hvx against the others${title}`, "", ...comparison(results));
  return lines;
}

/** Each strategy with DRS off against itself with DRS on. */
function drsComparison(runs: readonly StrategyRuns[]): string[] {
  const off = runs.find((r) => r.key === "drs-off");
  const on = runs.find((r) => r.key === "drs-on");
  if (!off || !on) return [];
  const out = [
    "## DRS off against DRS on",
    "",
    "| strategy | contended pod-hours, DRS off | DRS on | severe pod-hours, DRS off | DRS on | vMotions |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const r of off.results) {
    const o = on.results.find((x) => x.strategy === r.strategy);
    if (!o) continue;
    out.push(
      `| ${r.strategy} | ${fmt(r.figures.contendedPodSeconds / 3600, 1)} | ${fmt(o.figures.contendedPodSeconds / 3600, 1)} | ${fmt(r.figures.severeContendedPodSeconds / 3600, 1)} | ${fmt(o.figures.severeContendedPodSeconds / 3600, 1)} | ${o.figures.vmotions} |`,
    );
  }
  return out;
}

function meaning(world: World, t: ThresholdPolicy): string[] {
  const step = world.stepSeconds;
  return [
    "## What the figures mean",
    "",
    `- **Contended pod-hours**: for every ${step} s step and every node VM whose own CPU ready time was >= ${CONTENDED_PERCENT} % per vCPU in that step, the pods running on it count for ${step} s each; the total is shown in hours. One pod on a contended node VM for one hour is one pod-hour. ${CONTENDED_PERCENT} % is VMware's usual "worth watching" level.`,
    `- **Severe pod-hours**: the same at >= ${SEVERE_PERCENT} % (VMware's usual rule of thumb for a problem).`,
    `- **Why ${CONTENDED_PERCENT} % and not hvx's rejection threshold**: hvx rejects a node for new pods when its host's or its own VM's CPU ready per vCPU reaches \`thresholds.cpuReadyPercent\` (${fmtNum(t.cpuReadyPercent)} % in this run) and lowers its score from \`thresholds.cpuReadyWarnPercent\` (${fmtNum(t.cpuReadyWarnPercent)} %). That threshold decides where the next pod goes; these figures measure what the pods already placed felt. Counting from ${CONTENDED_PERCENT} % shows the time spent approaching the problem as well as the problem, and it is the same yardstick for every strategy, whatever hvx is configured with.`,
    `- **Saturated pod-hours**: the pods on a node VM whose pods' CPU use plus the guest's overhead reached all its vCPUs in that step: their threads wait in the guest's run queue, which ESXi's ready time does not see. **Contended or saturated** counts each pod-step that is either, once.`,
    `- **oracle**: ${ORACLE_NOTE}`,
    "- **Host-contended pod-hours** (under \"Other figures\"): the earlier definition, kept for continuity: a pod counts when its node VM's **or its host's** ready % was >= 5. Host ready % is a vCPU-weighted mean over every VM on the host, so this charges a pod for waits of VMs it does not run on.",
    "- **p99 VM ready %**: of all (node VM, step) samples of CPU ready per vCPU, 99 % were at or below this value.",
    `- **Balloon / swap GiB-hours**: ballooned (or host-swapped) GiB summed over all VMs, times the time it lasted: 10 GiB ballooned for 3 hours is 30 GiB-hours.`,
    "- **hvx evictions** (under \"Other figures\"): pods `hvx+rebalance` evicted off chronically hot hosts (docs/rebalance.md); each restarts through the scheduler `restartSeconds` later. Every eviction, kubelet's or hvx's, is one pod restart.",
    `- **Evictions**: kubelet evictions under memory pressure. **Longest cascade**: the most evictions in a row, each within ${CASCADE_GAP_MINUTES} min of the previous one.`,
    "- **Pending**: pods still waiting for a node at the end. **Placed**: distinct pods bound at least once (packing density). **Mean host CPU %**: mean over steps and in-service hosts.",
    "- **vMotions**: VMs DRS moved (maintenance evacuations not counted). **hvx evictions**: pods hvx evicted to rebalance (0 for strategies that never evict). **Pod-hours run**: running pods x time, the denominator for evictions per 100 pod-hours.",
    "- **From day 2 on**: the same figures counted from hour 24 (runs longer than a day), once the pods placed in the first night have met a full day.",
    "",
    "### Thresholds used",
    "",
    "| what | value |",
    "|---|---:|",
    `| contended: node VM's own CPU ready per vCPU (report only) | >= ${CONTENDED_PERCENT} % |`,
    `| severe (report only) | >= ${SEVERE_PERCENT} % |`,
    `| cascade: gap between evictions (report only) | <= ${CASCADE_GAP_MINUTES} min |`,
    `| hvx rejects a node: its host's or VM's CPU ready (\`thresholds.cpuReadyPercent\`) | >= ${fmtNum(t.cpuReadyPercent)} % |`,
    `| hvx lowers a node's score: CPU ready (\`thresholds.cpuReadyWarnPercent\`) | >= ${fmtNum(t.cpuReadyWarnPercent)} % |`,
    `| hvx rejects a host: CPU usage (\`thresholds.hostCpuUsagePercent\`) | >= ${fmtNum(t.hostCpuUsagePercent)} % |`,
    `| hvx rejects a host: memory usage (\`thresholds.hostMemoryUsagePercent\`) | >= ${fmtNum(t.hostMemoryUsagePercent)} % |`,
    `| hvx rejects a host: ballooned memory (\`thresholds.balloonPercent\`) | >= ${fmtNum(t.balloonPercent)} % |`,
  ];
}

function configSection(config: ReportConfig): string[] {
  const out = ["## hvx configuration used", ""];
  if (config.path === undefined) {
    out.push("The production defaults (no `--config`): the same values as `hvx serve` with an empty configuration file.");
    return out;
  }
  out.push(
    `\`--config ${config.path}\`. Keys that differ from the defaults (the simulated hvx uses the placement keys: \`thresholds\`, \`scoring\`, \`limits\`, \`burstGuard\` and the like; connection keys have no effect here):`,
    "",
  );
  if (config.changes.length === 0) {
    out.push("none: the file sets only default values.");
    return out;
  }
  out.push("| key | this run | default |", "|---|---|---|");
  for (const c of config.changes) out.push(`| \`${c.key}\` | ${cell(c.value)} | ${cell(c.defaultValue)} |`);
  return out;
}

function limits(): string[] {
  return [
    "## What the model does not do",
    "",
    "- **Rebalancing**: no descheduler; a pod stays where it was placed until it finishes or is evicted (by kubelet, or by hvx's rebalancer in `hvx+rebalance`; PodDisruptionBudgets are not modelled). DRS, when on, is vSphere 6.x's host load standard deviation on CPU demand (memory only as room on the target host) with MinGoodness and cost-benefit filters, or (`drs.model: vm-score`) a vSphere 7-style model of the VM DRS score; it sees VMs, never pods; a vMotion costs CPU in DRS's cost-benefit filter but the VM runs on undisturbed in the model.",
    "- **Production features not modelled**: the all-rejected safety valve (`filter.whenAllRejected`): when every host is hot, the simulated hvx rejects every node and the pod waits; and observe mode (`mode: observe`): the simulated hvx always enforces.",
    "- **Not modelled in the hosts**: co-stop, hyper-threads, NUMA (except in the `queueing` physics), vCPUs of one VM busy together, memory compression (counted as swap), page sharing and large pages.",
    "- **Not modelled in Kubernetes**: zones, preemption, kube-scheduler's `percentageOfNodesToScore` sampling.",
    "- **The workload is synthetic**: pod usage follows the scenario's formulas (docs/simulation.md section 3), not your metrics; the figures compare strategies on the same workload, they do not forecast your cluster.",
  ];
}

/** The headline table of one run's strategies (also what the README shows for noisy-neighbours). */
export function headlineTable(strategies: Readonly<Partial<Record<string, Omit<SummaryFigures, "fromDay2">>>>): string[] {
  const out = [
    "| strategy | contended pod-hours (>= 5 %) | severe pod-hours (>= 10 %) | p99 VM ready % | balloon GiB-hours | swap GiB-hours | evictions | longest cascade | pending | placed | mean host CPU % | saturated pod-hours | contended or saturated |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const [name, f] of Object.entries(strategies)) {
    if (!f) continue;
    out.push(
      `| ${name} | ${fmt(f.contendedPodSeconds / 3600, 1)} | ${fmt(f.severeContendedPodSeconds / 3600, 1)} | ${fmt(f.p99VmReadyPercent, 2)} | ${fmt(f.balloonGiBSeconds / 3600, 1)} | ${fmt(f.swapGiBSeconds / 3600, 1)} | ${f.evictions} | ${f.longestCascade} | ${f.pendingPods} | ${f.placedPods} | ${fmt(f.meanHostCpuUtilPercent, 1)} | ${fmt(f.saturatedPodSeconds / 3600, 1)} | ${fmt(f.contendedOrSaturatedPodSeconds / 3600, 1)} |`,
    );
  }
  return out;
}

function comparison(results: readonly RunResult[]): string[] {
  const by = new Map(results.map((r) => [r.strategy, r.figures]));
  const out: string[] = [];
  const base = by.get("default")?.contendedPodSeconds ?? 0;
  const oracle = by.get(ORACLE);
  if (oracle && base > 0) {
    const cutOf = (x: number) => (1 - x / base) * 100;
    const shares = results
      .filter((r) => r.strategy !== "default" && r.strategy !== ORACLE)
      .map((r) => oracleShareText(r.strategy, cutOf(r.figures.contendedPodSeconds), cutOf(oracle.contendedPodSeconds)));
    out.push(`- contended pod-hours cut against \`default\`, as a share of the oracle's (a reference): ${shares.join("; ")}.`);
  }
  const onlineBase = by.get("default")?.onlineContendedPodSeconds ?? 0;
  if (results.some((r) => r.figures.onlinePodHours > 0)) {
    const online = results.map(
      (r) =>
        `${r.strategy} ${fmt(r.figures.onlineContendedPodSeconds / 3600, 1)}` +
        (r.strategy !== "default" && onlineBase > 0 ? ` (${change(r.figures.onlineContendedPodSeconds, onlineBase)})` : ""),
    );
    out.push(`- the online class's contended pod-hours (against \`default\`): ${online.join("; ")}.`);
  }
  for (const [name, others, prefix] of [
    ["hvx", ["default", "vm-load-aware"], ""],
    ["hvx+rebalance", ["default", "vm-load-aware", "hvx"], "`hvx+rebalance` "],
  ] as const) {
    const hvx = by.get(name);
    if (!hvx) continue;
    for (const other of others) {
      const o = by.get(other);
      if (!o) continue;
      const placed = o.placedPods > 0 ? (hvx.placedPods / o.placedPods) * 100 : 100;
      out.push(
        `- ${prefix}against \`${other}\`: contended pod-hours ${change(hvx.contendedPodSeconds, o.contendedPodSeconds)}; severe ${change(hvx.severeContendedPodSeconds, o.severeContendedPodSeconds)}; pods placed ${fmt(placed, 1)} % of ${other}'s.`,
      );
    }
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

function fmtNum(v: number): string {
  return String(v);
}

function cell(text: string): string {
  return `\`${text.replace(/\|/g, "\\|").replace(/`/g, "'")}\``;
}
