import type { AcrossSeeds, SeedStat } from "./across-seeds.js";
import type { World } from "./build-world.js";
import { CORRELATED_SHARE_PERCENT, DRS_UNDOES_PERCENT, LEVER_HELPS_PERCENT, drsAdvice } from "./drs-advice.js";
import { DRS_LEVER_NAMES, DRS_LEVER_TITLES } from "./drs-levers.js";
import type { PhysicsName } from "./physics.js";
import { isTracedCpu } from "./scenario.js";
import { seedStatText } from "./render-across-seeds.js";
import { ORACLE } from "./strategy.js";

/** The report's "With DRS on" section: default, hvx and the oracle, the vSphere levers tried, the advice; empty without DRS on. */
export function renderDrsAdvice(world: World, a: AcrossSeeds): string[] {
  const s = world.scenario;
  const advice = drsAdvice({
    acrossSeeds: a,
    correlatedWorkloads: s.workloads.filter((w) => !isTracedCpu(w.cpu) && w.cpu.burst?.correlated).map((w) => w.name),
    nodeVmsPerHost: s.nodeVms.perHost,
    nonKubernetesVms: world.vms.count - world.nodes.count,
  });
  const physics = (Object.keys(a.physics) as PhysicsName[]).filter((p) => a.physics[p]?.["drs-on"]?.hvx);
  if (physics.length === 0) return [];
  const lines = [
    "## With DRS on: what would help",
    "",
    "hvx places pods; DRS then moves whole VMs by host load, never seeing pods. The oracle shows how much any pod placement could still do with DRS on; the levers below act on vSphere instead, each tried on `hvx` with DRS on at every seed and physics of this report (mean [lowest, highest]). The twin has no DRS rules, so those are advised from the run's figures, not simulated.",
    "",
  ];
  for (const p of physics) {
    const on = a.physics[p]!["drs-on"]!;
    const cut = (name: "hvx" | typeof ORACLE) => on[name]?.cutVsDefaultPercent?.mean;
    const hvxCut = cut("hvx");
    const oracleCut = cut(ORACLE);
    const offOracle = a.physics[p]?.["drs-off"]?.[ORACLE]?.cutVsDefaultPercent?.mean;
    lines.push(
      `- \`${p}\`, DRS on: \`default\` ${stat(on.default?.contendedPodHours)}, hvx ${stat(on.hvx?.contendedPodHours)}, oracle ${stat(on[ORACLE]?.contendedPodHours)} contended pod-hours; ` +
        `hvx's cut ${pct(hvxCut)}, the oracle's ${pct(oracleCut)}${offOracle !== undefined ? ` (${pct(offOracle)} with DRS off)` : ""}` +
        `${hvxCut !== undefined && oracleCut !== undefined && oracleCut > 0 ? `, hvx ${Math.round((hvxCut / oracleCut) * 100)} % of it` : ""}.`,
    );
  }
  lines.push(
    "",
    `| hvx, DRS on | ${physics.map((p) => `\`${p}\`: contended pod-hours | cut vs as run | vMotions`).join(" | ")} |`,
    `|---|${physics.map(() => "---:|---:|---:").join("|")}|`,
    `| as run | ${physics.map((p) => `${stat(a.physics[p]!["drs-on"]!.hvx!.contendedPodHours)} | | ${stat(a.physics[p]!["drs-on"]!.hvx!.vmotions, 0)}`).join(" | ")} |`,
  );
  for (const lever of DRS_LEVER_NAMES) {
    const cells = physics.map((p) => a.drsLevers?.[p]?.[lever]);
    if (cells.some((c) => c === undefined)) continue;
    lines.push(
      `| ${DRS_LEVER_TITLES[lever]} | ${cells.map((c) => `${stat(c!.contendedPodHours)} | ${c!.cutVsAsRunPercent ? `${stat(c!.cutVsAsRunPercent)} %` : "n/a"} | ${stat(c!.vmotions, 0)}`).join(" | ")} |`,
    );
  }
  if (advice.length === 0) {
    lines.push("", "No advice: hvx had no contended pod-hours with DRS on, under any physics.");
    return lines;
  }
  lines.push(
    "",
    `Advice (a lever *helps* when it cuts hvx's contended pod-hours by ${LEVER_HELPS_PERCENT} % or more on average under every physics; a VM-Host rule is advised when DRS raises hvx's contention by more than ${DRS_UNDOES_PERCENT} % over its DRS-off figure; an anti-affinity rule when correlated replicas sharing a host carry ${CORRELATED_SHARE_PERCENT} % or more of it):`,
    "",
  );
  for (const x of advice) {
    const verdict = x.helpsUnder ? `helps under ${x.helpsUnder.map((p) => `\`${p}\``).join(", ")} only` : x.verdict;
    lines.push(`- **${x.lever}**: ${verdict}. ${x.because} Source: ${x.source}.`);
  }
  return lines;
}

function stat(s: SeedStat | undefined, digits = 1): string {
  return s ? seedStatText(s, digits) : "n/a";
}

function pct(v: number | undefined): string {
  return v === undefined ? "n/a" : `${v.toFixed(1)} %`;
}
