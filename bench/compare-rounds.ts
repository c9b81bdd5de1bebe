import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { processCpuMs, type FreshOptions, type RoundResult } from "./closed-loop.js";
import { closedLoopRoundInProcess } from "./closed-loop-process.js";
import { percentile, type BenchFigure } from "./figure.js";
import type { HvxChild, Server } from "./hvx-process.js";

export const CONNECTIONS = 4;
const ROUNDS = 3;
const ROUND_MS = Number(process.env.HVX_BENCH_ROUND_MS ?? 3000);
/** Unmeasured load before each round: a fresh generator's first second of round trips is its own warm-up, not the server's. */
const WARM_MS = Number(process.env.HVX_BENCH_WARM_MS ?? 1000);
/** Idle time before the rounds of a case with a CPU target: one poll interval (`vcenter.pollIntervalSeconds` 20, a poll lands in it). */
const IDLE_MS = Number(process.env.HVX_BENCH_IDLE_MS ?? 20_000);
/**
 * Unmeasured load before each round of the steady-state case: after tens of seconds under load a
 * small heap enters V8's cycle of back-to-back mark-compacts (docs/performance.md, "Eighth pass"),
 * which a 1 s warm-up never reaches.
 */
export const STEADY_WARM_MS = Number(process.env.HVX_BENCH_STEADY_WARM_MS ?? 20_000);

export interface Targets {
  /** hvx CPU per pair <= this x the floor's. */
  readonly cpuRatio?: number;
  /** hvx round-trip p99 <= this, ms. */
  readonly p99Ms?: number;
  /** hvx round-trip p50 <= this x the floor's. */
  readonly roundTripRatio?: number;
}

/** `HVX_BENCH_HTTP_CASES=nodeNames.500,fresh`: only those cases (for a CPU profile of one). */
const CASES = process.env.HVX_BENCH_HTTP_CASES?.split(",");

/** Whether the figures `http.<case>[.…]` are asked for (all without HVX_BENCH_HTTP_CASES). */
export function caseWanted(key: string): boolean {
  return !CASES || CASES.some((c) => key === `http.${c}` || key.startsWith(`http.${c}.`));
}

export interface CompareOptions {
  /** Unmeasured load before each round, ms. */
  readonly warmMs?: number;
  /**
   * Every pair a new pod cut from `body` (fresh-pods.ts), on both sides; `kube`: hvx's rounds
   * also create each pod in the API server hvx watches before its filter and bind it after its
   * prioritize. The floor keeps no cluster view, so its rounds send the verbs alone.
   */
  readonly fresh?: Omit<FreshOptions, "firstPod">;
  /** Requests in flight at once; CONNECTIONS by default, 1 as kube-scheduler calls (`SERIAL`). */
  readonly connections?: number;
}

/**
 * kube-scheduler's scheduling cycles run one at a time (its extender calls are in the cycle;
 * binding cycles run beside it): one scheduler sends the extender one request at a time. The
 * 4-connection rounds load the server beyond that, so their round trips include queueing.
 */
export const SERIAL = 1;

/** Pods of one round are numbered from a new million, so no two rounds of a run make the same pod. */
const PODS_PER_ROUND = 1_000_000;
let freshRounds = 0;
/** The first pod number of a new fresh-pod round. */
export function nextRoundFirstPod(): number {
  return PODS_PER_ROUND * freshRounds++;
}

/**
 * hvx against the floor with the same bodies: 3 alternating rounds (hvx, floor), each WARM_MS
 * unmeasured then ROUND_MS measured by the closed-loop generator in a process of its own;
 * every figure is the median of the 3 rounds.
 */
export async function compare(
  key: string,
  hvx: HvxChild,
  floor: Server,
  body: string,
  targets: Targets,
  work: string,
  options: CompareOptions = {},
): Promise<BenchFigure[]> {
  const warmMs = options.warmMs ?? WARM_MS;
  if (!caseWanted(key)) return [];
  const bodyFile = join(work, `${key}.json`);
  writeFileSync(bodyFile, body);
  // What hvx spends with no request at all (polls, informers, gauges), over one poll interval: part of every round's CPU.
  let idleCpuMsPerSecond: number | undefined;
  if (targets.cpuRatio !== undefined) {
    const idleFrom = processCpuMs(hvx.child.pid!);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    idleCpuMsPerSecond = ((processCpuMs(hvx.child.pid!) - idleFrom) * 1000) / IDLE_MS;
  }
  const rounds: { hvx: RoundResult[]; floor: RoundResult[] } = { hvx: [], floor: [] };
  const hvxGc: GcDelta[] = [];
  const throttledMsPerThousandPairs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of ["hvx", "floor"] as const) {
      const server = side === "hvx" ? hvx : floor;
      const gcBefore = side === "hvx" ? await gcTotals(hvx.adminPort) : undefined;
      const throttledBefore = side === "hvx" ? hvx.cpuLimit?.throttling() : undefined;
      const fresh = options.fresh && {
        firstPod: nextRoundFirstPod(),
        ...(side === "hvx" && options.fresh.kube ? { kube: options.fresh.kube, keepBound: options.fresh.keepBound } : {}),
        ...(options.fresh.candidates ? { candidates: options.fresh.candidates } : {}),
      };
      const round = await closedLoopRoundInProcess({
        port: server.port,
        pid: server.child.pid!,
        bodyFile,
        durationMs: ROUND_MS,
        warmMs,
        connections: options.connections ?? CONNECTIONS,
        ...(fresh ? { fresh } : {}),
      });
      rounds[side].push(round);
      if (gcBefore) hvxGc.push(gcDelta(gcBefore, await gcTotals(hvx.adminPort), round.pairs));
      if (throttledBefore) throttledMsPerThousandPairs.push(((hvx.cpuLimit!.throttling().ms - throttledBefore.ms) * 1000) / round.pairs);
    }
  }
  const summary = (rs: RoundResult[]) => ({
    pairsPerSecond: median(rs.map((x) => (x.pairs * 1000) / x.elapsedMs)),
    p50Ms: median(rs.map((x) => percentile(x.roundTripsMs, 50))),
    p99Ms: median(rs.map((x) => percentile(x.roundTripsMs, 99))),
    cpuMsPerPair: median(rs.map((x) => x.serverCpuMs / x.pairs)),
  });
  const h = summary(rounds.hvx);
  const f = summary(rounds.floor);
  const cpuRatio = h.cpuMsPerPair / f.cpuMsPerPair;
  const rtRatio = h.p50Ms / f.p50Ms;
  const out: BenchFigure[] = [];
  for (const [side, s] of [
    ["hvx", h],
    ["floor", f],
  ] as const) {
    out.push(
      { name: `${key}.${side}.pairsPerSecond`, value: s.pairsPerSecond, unit: "filter+prioritize/s" },
      { name: `${key}.${side}.roundTrip.p50Ms`, value: s.p50Ms, unit: "ms" },
      {
        name: `${key}.${side}.roundTrip.p99Ms`,
        value: s.p99Ms,
        unit: "ms",
        ...(side === "hvx" && targets.p99Ms !== undefined ? { target: `<= ${targets.p99Ms}`, ok: s.p99Ms <= targets.p99Ms } : {}),
      },
      { name: `${key}.${side}.serverCpuMsPerPair`, value: s.cpuMsPerPair, unit: "ms CPU/pair" },
    );
  }
  out.push(
    {
      name: `${key}.cpuPerPair.hvxVsFloor`,
      value: cpuRatio,
      unit: "x",
      ...(targets.cpuRatio !== undefined ? { target: `<= ${targets.cpuRatio}`, ok: cpuRatio <= targets.cpuRatio } : {}),
    },
    {
      name: `${key}.roundTrip.p50.hvxVsFloor`,
      value: rtRatio,
      unit: "x",
      ...(targets.roundTripRatio !== undefined ? { target: `<= ${targets.roundTripRatio}`, ok: rtRatio <= targets.roundTripRatio } : {}),
    },
    { name: `${key}.pairsPerSecond.hvxVsFloor`, value: h.pairsPerSecond / f.pairsPerSecond, unit: "x" },
  );
  // What hvx's garbage collector did over a round (its own nodejs_gc_duration_seconds, warm-up included):
  // the round-trip p99 follows the scavenges.
  out.push(
    { name: `${key}.hvx.gc.minorPauseMs.mean`, value: median(hvxGc.map((g) => g.minorMeanMs)), unit: "ms" },
    { name: `${key}.hvx.gc.minorPerThousandPairs`, value: median(hvxGc.map((g) => g.minorPerThousandPairs)), unit: "scavenges" },
    { name: `${key}.hvx.gc.majorPerThousandPairs`, value: median(hvxGc.map((g) => g.majorPerThousandPairs)), unit: "mark-compacts" },
  );
  if (hvx.cpuLimit)
    out.push({
      name: `${key}.hvx.cpuLimit.throttledMsPerThousandPairs`,
      value: median(throttledMsPerThousandPairs),
      unit: `ms (quota of ${hvx.cpuLimit.cpus} CPU)`,
    });
  if (idleCpuMsPerSecond !== undefined)
    out.push(
      { name: `${key}.hvx.idleCpuMsPerSecond`, value: idleCpuMsPerSecond, unit: "ms CPU/s" },
      // The idle CPU spread over the round's pairs: how much of hvx's CPU per pair no request caused.
      { name: `${key}.hvx.idleCpuMsPerPair`, value: idleCpuMsPerSecond / h.pairsPerSecond, unit: "ms CPU/pair" },
    );
  return out;
}

interface GcTotals {
  readonly minorCount: number;
  readonly minorSeconds: number;
  readonly majorCount: number;
}
interface GcDelta {
  readonly minorMeanMs: number;
  readonly minorPerThousandPairs: number;
  readonly majorPerThousandPairs: number;
}

/** hvx's collections so far, from its admin port's `nodejs_gc_duration_seconds` (prom-client's default metrics). */
async function gcTotals(adminPort: number): Promise<GcTotals> {
  const text = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
  const value = (series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
  return {
    minorCount: value('nodejs_gc_duration_seconds_count{kind="minor"}'),
    minorSeconds: value('nodejs_gc_duration_seconds_sum{kind="minor"}'),
    majorCount: value('nodejs_gc_duration_seconds_count{kind="major"}'),
  };
}

function gcDelta(before: GcTotals, after: GcTotals, pairs: number): GcDelta {
  const minor = after.minorCount - before.minorCount;
  return {
    minorMeanMs: minor > 0 ? ((after.minorSeconds - before.minorSeconds) * 1000) / minor : 0,
    minorPerThousandPairs: (minor * 1000) / pairs,
    majorPerThousandPairs: ((after.majorCount - before.majorCount) * 1000) / pairs,
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
