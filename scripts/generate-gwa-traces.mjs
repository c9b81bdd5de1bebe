#!/usr/bin/env node
// Writes the small synthetic traces of examples/scenarios/traced-neighbours.yaml, in the
// Grid Workloads Archive's GWA-T-12 per-VM format (docs/simulation.md section 3):
//
//   node scripts/generate-gwa-traces.mjs [OUT_DIR (examples/scenarios/traces)] [SEED (12)]
//
// Synthetic, seeded and reproducible: no published trace is copied. One day per file at
// 300 s samples (288 rows), timestamps in seconds as in the published files. Shapes are
// office hours: quiet nights, a ramp from 07:30 to 09:00, a plateau with a lunch dip, a
// ramp down after 17:00, per-VM levels, noise and rare short spikes.
//   office-vms/1..6.csv   non-Kubernetes VMs (busy business applications)
//   office-pods/1..4.csv  a web workload's replicas (lighter, same day)
// 1.csv of office-vms also holds one row with zero memory capacity, so the scenario shows
// the skipped-row count (`skippedTraceRows`) at work.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const out = process.argv[2] ?? "examples/scenarios/traces";
const seed = Number(process.argv[3] ?? 12);
const START_S = 1_764_460_800; // 2025-11-30T00:00:00Z, a Sunday in the format's seconds
const SAMPLE_S = 300;
const ROWS = 288;

// mulberry32, the same small generator the simulator uses for tie-breaks
function rng(a) {
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 0..1: the office-hours shape at `hour` (0..24). */
function office(hour) {
  const ramp = (x, a, b) => Math.min(1, Math.max(0, (x - a) / (b - a)));
  const day = ramp(hour, 7.5, 9) * (1 - ramp(hour, 17, 19));
  const lunch = 1 - 0.25 * Math.exp(-((hour - 12.5) ** 2) / 0.3);
  return day * lunch;
}

function file(dir, k, spec, r) {
  const header =
    "Timestamp [ms];\tCPU cores;\tCPU capacity provisioned [MHZ];\tCPU usage [MHZ];\tCPU usage [%];\tMemory capacity provisioned [KB];\tMemory usage [KB];\tDisk read throughput [KB/s];\tDisk write throughput [KB/s];\tNetwork received throughput [KB/s];\tNetwork transmitted throughput [KB/s]";
  const cores = spec.cores;
  const capMhz = cores * 2600;
  const memKB = spec.memGiB * 1024 * 1024;
  const night = spec.night[0] + r() * (spec.night[1] - spec.night[0]);
  const peak = spec.peak[0] + r() * (spec.peak[1] - spec.peak[0]);
  const shift = (r() - 0.5) * 1.0; // hours: people start a little earlier or later per VM
  const rows = [header];
  let spike = 0;
  for (let i = 0; i < ROWS; i++) {
    const hour = (i * SAMPLE_S) / 3600;
    if (spike === 0 && r() < 0.01) spike = 1 + Math.floor(r() * 3);
    const level = night + (peak - night) * office(hour - shift);
    const noise = 1 + 0.12 * (r() + r() + r() - 1.5) * 2;
    let pct = Math.min(100, Math.max(0, level * noise + (spike > 0 ? 25 : 0)));
    if (spike > 0) spike--;
    pct = Math.round(pct * 1000) / 1000;
    const memShare = Math.min(1, spec.mem[0] + (spec.mem[1] - spec.mem[0]) * office(hour - shift) + 0.02 * r());
    const memCap = dir === "office-vms" && k === 1 && i === 100 ? 0 : memKB; // the one skipped row
    const cells = [
      START_S + i * SAMPLE_S,
      cores,
      capMhz,
      Math.round((pct / 100) * capMhz * 1000) / 1000,
      pct,
      memCap,
      Math.round(memShare * memKB),
      Math.round(r() * 500),
      Math.round(r() * 200),
      Math.round(r() * 100),
      Math.round(r() * 100),
    ];
    rows.push(cells.join(";\t"));
  }
  return `${rows.join("\n")}\n`;
}

const groups = [
  { dir: "office-vms", count: 6, spec: { cores: 8, memGiB: 32, night: [15, 25], peak: [80, 95], mem: [0.7, 0.9] } },
  { dir: "office-pods", count: 4, spec: { cores: 2, memGiB: 4, night: [5, 12], peak: [45, 70], mem: [0.5, 0.6] } },
];
const r = rng(seed >>> 0);
for (const g of groups) {
  mkdirSync(join(out, g.dir), { recursive: true });
  for (let k = 1; k <= g.count; k++) writeFileSync(join(out, g.dir, `${k}.csv`), file(g.dir, k, g.spec, r));
}
process.stdout.write(`wrote ${groups.map((g) => `${g.count} files to ${join(out, g.dir)}`).join(", ")}\n`);
