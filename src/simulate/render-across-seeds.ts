import type { AcrossSeeds, AcrossSeedsFigures, SeedStat } from "./across-seeds.js";
import { ORACLE } from "./strategy.js";

const RUN_TITLES = { "drs-off": "DRS off", "drs-on": "DRS on" } as const;

/** What every report says of the oracle, wherever it shows it. */
export const ORACLE_NOTE =
  "`oracle` is a **reference, not a scheduler**: it sees every pod's and VM's future CPU use and places each pod, greedily, on the feasible node that adds the least contention (own ready >= 5 % or a saturated guest) over the pod's lifetime, with the run's physics. No real scheduler can see the future; its cut says how much contention placement alone could avoid, and each strategy's cut is stated as a share of it.";

/** "hvx: 67.0 % cut = 70 % of the oracle's 95.0 %" for one strategy (cuts in percent against `default`). */
export function oracleShareText(name: string, cutPercent: number, oracleCutPercent: number): string {
  const share = oracleCutPercent > 0 ? `${Math.round((cutPercent / oracleCutPercent) * 100)} %` : "n/a";
  return `${name}: ${cutPercent.toFixed(1)} % cut = ${share} of the oracle's ${oracleCutPercent.toFixed(1)} %`;
}

/** The report's across-seeds section: per physics and DRS setting, each strategy's mean and range over the seeds. */
export function renderAcrossSeeds(a: AcrossSeeds): string[] {
  const seeds = a.seeds.length === 1 ? `seed ${a.seeds[0]}` : `seeds ${a.seeds[0]}-${a.seeds[a.seeds.length - 1]}`;
  const lines = [
    `## Across ${a.seeds.length === 1 ? "one seed" : `${a.seeds.length} seeds`} (${seeds}) and the physics`,
    "",
    ORACLE_NOTE,
    "",
    "Physics (docs/simulation.md section 4): `overflow`, the normal approximation of runnable vCPUs beyond the host's cores; `queueing`, a finite-source M/M/c//N queue per NUMA node. " +
      "Cuts are contended (ready) pod-seconds against `default` of the same seed; mean [lowest, highest] over the seeds. " +
      "Saturated: pods on a node VM whose guest used all its vCPUs (their threads queue inside the guest, where ESXi's ready time does not see them).",
    "",
  ];
  for (const [physics, byKey] of Object.entries(a.physics)) {
    for (const [key, strategies] of Object.entries(byKey ?? {})) {
      const oracle = strategies?.[ORACLE];
      const oracleCut = oracle?.cutVsDefaultPercent?.mean;
      if (oracleCut === undefined) continue;
      const shares = Object.entries(strategies ?? {})
        .filter(([name, f]) => name !== "default" && name !== ORACLE && f?.cutVsDefaultPercent)
        .map(([name, f]) => oracleShareText(name, f!.cutVsDefaultPercent!.mean, oracleCut));
      lines.push(`- \`${physics}\`, ${RUN_TITLES[key as keyof typeof RUN_TITLES]}: ${shares.join("; ")}.`);
    }
  }
  lines.push(
    "",
    "| physics | DRS | strategy | contended pod-hours (ready >= 5 %) | saturated pod-hours | contended or saturated | cut vs default | share of the oracle's cut | vMotions | placed | evictions per 100 pod-hours |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const [physics, byKey] of Object.entries(a.physics)) {
    for (const [key, strategies] of Object.entries(byKey ?? {})) {
      for (const [name, f] of Object.entries(strategies ?? {})) {
        if (!f) continue;
        lines.push(
          `| ${physics} | ${RUN_TITLES[key as keyof typeof RUN_TITLES]} | ${name === ORACLE ? "oracle (reference)" : name} | ${seedStatText(f.contendedPodHours, 1)} | ${seedStatText(f.saturatedPodHours, 1)} | ${seedStatText(f.contendedOrSaturatedPodHours, 1)} | ${cut(f)} | ${share(f, name)} | ${seedStatText(f.vmotions, 0)} | ${seedStatText(f.placedPods, 0)} | ${seedStatText(f.evictionsPer100PodHours, 2)} |`,
        );
      }
    }
  }
  return [...lines, ...onlineClassTable(a)];
}

/** The online workload class's own figures, when the scenario has online pods (docs/scenarios.md, `workloadClasses.*`). */
function onlineClassTable(a: AcrossSeeds): string[] {
  const rows: string[] = [];
  for (const [physics, byKey] of Object.entries(a.physics)) {
    for (const [key, strategies] of Object.entries(byKey ?? {})) {
      for (const [name, f] of Object.entries(strategies ?? {})) {
        if (!f || f.onlinePodHours.max <= 0) continue;
        const onlineCut = f.onlineCutVsDefaultPercent ? `${seedStatText(f.onlineCutVsDefaultPercent, 1)} %` : "n/a";
        rows.push(
          `| ${physics} | ${RUN_TITLES[key as keyof typeof RUN_TITLES]} | ${name === ORACLE ? "oracle (reference)" : name} | ${seedStatText(f.onlinePodHours, 0)} | ${seedStatText(f.onlineContendedPodHours, 1)} | ${name === "default" ? "" : onlineCut} | ${seedStatText(f.placedPods, 0)} |`,
        );
      }
    }
  }
  if (rows.length === 0) return [];
  return [
    "",
    "### The online class",
    "",
    "Pods the run's `workloadClasses.*` settings make online (docs/scenarios.md): their own contended (ready >= 5 %) pod-hours, and the cut against `default` of the same seed.",
    "",
    "| physics | DRS | strategy | online pod-hours | online contended pod-hours | online cut vs default | placed |",
    "|---|---|---|---:|---:|---:|---:|",
    ...rows,
  ];
}

/** "mean [lowest, highest]", or the mean alone when the range is one value at `digits` (sums over seeds differ in float dust). */
export function seedStatText(s: SeedStat, digits: number): string {
  const [mean, min, max] = [s.mean, s.min, s.max].map((v) => v.toFixed(digits));
  return min === max ? mean! : `${mean} [${min}, ${max}]`;
}

function cut(f: AcrossSeedsFigures): string {
  return f.cutVsDefaultPercent ? `${seedStatText(f.cutVsDefaultPercent, 1)} %` : "n/a";
}

function share(f: AcrossSeedsFigures, name: string): string {
  if (name === "default") return "";
  if (name === ORACLE) return f.shareOfOracleCutPercent === null ? "n/a" : "100 %";
  return f.shareOfOracleCutPercent === null ? "n/a" : `${Math.round(f.shareOfOracleCutPercent)} %`;
}
