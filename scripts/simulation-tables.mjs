#!/usr/bin/env node
// Regenerates docs/simulation.md section 9's tables: runs `hvx simulate` (ten seeds, both
// physics, DRS off and on: the command's defaults) on each bundled scenario, one at a time,
// then prints the tables from each summary.json.
//
//   npm run simulate:tables [-- --out DIR] [-- --render-only] [-- noisy-neighbours ...]
//
// --out DIR: where each scenario's report goes (DIR/<scenario>/) and the tables (DIR/tables.md);
// default simulation-tables. --render-only: no runs, tables from the summaries already in DIR.
// A full run of the five scenarios takes about an hour on two shared cores.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SCENARIOS = ["noisy-neighbours", "traced-neighbours", "diurnal-correlated", "vmotion-storm", "steady"];
const LEVERS = {
  "node-vm-shares-high": "node VMs' shares High",
  "node-vm-reservation": "node VMs' CPU reservation",
  "migration-threshold-lower": "threshold one level lower",
};

const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const outDir = outAt >= 0 ? args[outAt + 1] : "simulation-tables";
const renderOnly = args.includes("--render-only");
const named = args.filter((a, i) => !a.startsWith("--") && (outAt < 0 || i !== outAt + 1));
const scenarios = named.length > 0 ? named : SCENARIOS;

mkdirSync(outDir, { recursive: true });
if (!renderOnly) {
  for (const s of scenarios) {
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      ["dist/src/cli.js", "simulate", "--scenario", `examples/scenarios/${s}.yaml`, "--out", join(outDir, s)],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    if (r.status !== 0) {
      console.error(`simulation-tables: ${s} failed (exit ${r.status})`);
      process.exit(1);
    }
    console.error(`simulation-tables: ${s} done in ${Math.round((Date.now() - started) / 1000)} s`);
  }
}

const stat = (s, digits = 1) =>
  s.min === s.max ? s.mean.toFixed(digits) : `${s.mean.toFixed(digits)} [${s.min.toFixed(digits)}, ${s.max.toFixed(digits)}]`;
const cut = (s) => (s ? `${stat(s)} %` : "n/a");
const share = (name, f) => (name === "default" || f.shareOfOracleCutPercent === null ? "" : `${Math.round(f.shareOfOracleCutPercent)} %`);

const lines = [];
const drsOn = [];
for (const s of scenarios) {
  const file = join(outDir, s, "summary.json");
  if (!existsSync(file)) {
    console.error(`simulation-tables: no ${file}; run without --render-only first`);
    process.exit(1);
  }
  const summary = JSON.parse(readFileSync(file, "utf8"));
  const a = summary.acrossSeeds;
  lines.push(
    `### ${s}`,
    "",
    `Seeds ${a.seeds[0]}-${a.seeds[a.seeds.length - 1]}, mean [lowest, highest]; cut per seed against \`default\`; share: hvx's mean cut over the oracle's.`,
    "",
    "| physics | DRS | strategy | contended pod-hours (ready >= 5 %) | saturated pod-hours | contended or saturated | cut vs default | share of the oracle's cut | vMotions | placed |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const [physics, byKey] of Object.entries(a.physics)) {
    for (const [key, strategies] of Object.entries(byKey)) {
      for (const [name, f] of Object.entries(strategies)) {
        lines.push(
          `| ${physics} | ${key === "drs-on" ? "on" : "off"} | ${name === "oracle" ? "oracle (reference)" : name} | ${stat(f.contendedPodHours)} | ${stat(f.saturatedPodHours)} | ${stat(f.contendedOrSaturatedPodHours)} | ${name === "default" ? "" : cut(f.cutVsDefaultPercent)} | ${share(name, f)} | ${stat(f.vmotions, 0)} | ${stat(f.placedPods, 0)} |`,
        );
      }
      if (key === "drs-on") drsOn.push({ s, physics, strategies, levers: a.drsLevers?.[physics] ?? {} });
    }
  }
  lines.push("");
}
if (drsOn.length > 0) {
  lines.push(
    "### With DRS on: hvx, default and the oracle, and the vSphere levers tried on hvx",
    "",
    `| scenario | physics | default | hvx | oracle | hvx's cut | oracle's cut | hvx's share | ${Object.values(LEVERS).join(" | ")} | hvx's contended pod-hours on correlated replicas sharing a host |`,
    `|---|---|---:|---:|---:|---:|---:|---:|${Object.keys(LEVERS)
      .map(() => "---:|")
      .join("")}---:|`,
  );
  for (const { s, physics, strategies: st, levers } of drsOn) {
    const leverCells = Object.keys(LEVERS).map((k) => (levers[k] ? cut(levers[k].cutVsAsRunPercent) : "n/a"));
    const hvx = st.hvx;
    const co = hvx.correlatedCoHostedPodHours;
    const coHosted =
      co && hvx.contendedPodHours.mean > 0 ? `${stat(co)} (${((co.mean / hvx.contendedPodHours.mean) * 100).toFixed(0)} %)` : "n/a";
    lines.push(
      `| ${s} | ${physics} | ${stat(st.default.contendedPodHours)} | ${stat(hvx.contendedPodHours)} | ${stat(st.oracle.contendedPodHours)} | ${cut(hvx.cutVsDefaultPercent)} | ${cut(st.oracle.cutVsDefaultPercent)} | ${share("hvx", hvx)} | ${leverCells.join(" | ")} | ${coHosted} |`,
    );
  }
  lines.push("");
}
const text = `${lines.join("\n")}\n`;
writeFileSync(join(outDir, "tables.md"), text);
process.stdout.write(text);
