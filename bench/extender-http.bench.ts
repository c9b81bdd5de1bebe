import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stringify } from "yaml";
import { generateScenario, startMockVcenter, type MockVcenterHandle, type Scenario } from "../mocks/vcenter/index.js";
import { realisticNode } from "../test/fixtures/wire-node.js";
import { processCpuMs, type RoundResult } from "./closed-loop.js";
import { closedLoopRoundInProcess } from "./closed-loop-process.js";
import { percentile, type BenchFigure } from "./figure.js";

const CONNECTIONS = 4;
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
const STEADY_WARM_MS = Number(process.env.HVX_BENCH_STEADY_WARM_MS ?? 20_000);

/**
 * Issue 13: the extender over HTTP, as a user runs it, against the physical floor.
 *
 * `hvx serve` runs as a child process against the mock vCenter (in this process, polled every
 * 20 s as by default), with no Kubernetes cache; a bare `node:http` server (extender-floor.ts)
 * parses the same ExtenderArgs and answers every name. The same closed-loop generator
 * (4 keep-alive connections, filter then prioritize), in a process of its own, drives both in
 * alternating rounds of WARM_MS unmeasured then ROUND_MS measured; every figure is the median
 * of 3 rounds. Server CPU is user + system time of the
 * server process over the round (/proc/<pid>/stat), per filter+prioritize pair. The
 * generator shares the two cores with the server, so pairs per second understate the
 * gap: CPU per pair is the figure the targets are set on.
 *
 * `HVX_BENCH_CPU_PROF=DIR` starts hvx with `--cpu-prof --cpu-prof-dir DIR`; summarise with
 * `node dist/bench/cpu-profile-summary.js DIR`.
 */
export async function run(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const floor = await startFloor();
  const smallScenario = generateScenario({ hosts: 40, vmsPerHost: 13 });
  const bigScenario = generateScenario({ hosts: 250, vmsPerHost: 20 });
  const small = await startMockVcenter({ scenario: smallScenario });
  const big = await startMockVcenter({ scenario: bigScenario });
  const work = mkdtempSync(join(tmpdir(), "hvx-http-bench-"));
  const servers: HvxChild[] = [];
  try {
    const hvxSmall = await startHvx(small, smallScenario, work, "small");
    servers.push(hvxSmall);
    const pod = JSON.parse(readFileSync(new URL("../../test/fixtures/wire/filter-args-nodenames.json", import.meta.url), "utf8")).Pod;
    const smallVms = smallScenario.vms.map((v) => ({ name: v.name, biosUuid: v.biosUuid ?? "" }));
    for (const n of [100, 500]) {
      const body = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: smallVms.slice(0, n).map((v) => v.name) });
      figures.push(...(await compare(`http.nodeNames.${n}`, hvxSmall, floor, body, n === 500 ? { cpuRatio: 2.0, p99Ms: 2 } : {}, work)));
      if (n === 500)
        figures.push(...(await compare("http.nodeNames.500.steady", hvxSmall, floor, body, { p99Ms: 2 }, work, STEADY_WARM_MS)));
    }
    const items = smallVms.slice(0, 500).map((v, i) => realisticNode(v.name, v.biosUuid, i));
    const nodesBody = JSON.stringify({ Pod: pod, Nodes: { metadata: {}, items }, NodeNames: null });
    figures.push({ name: "http.nodes.500.payloadKB", value: Buffer.byteLength(nodesBody) / 1024, unit: "KiB" });
    figures.push(...(await compare("http.nodes.500", hvxSmall, floor, nodesBody, { roundTripRatio: 1.0 }, work)));
    await stopHvx(hvxSmall);

    const hvxBig = await startHvx(big, bigScenario, work, "big");
    servers.push(hvxBig);
    const bigBody = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: bigScenario.vms.slice(0, 5000).map((v) => v.name) });
    figures.push(...(await compare("http.nodeNames.5000", hvxBig, floor, bigBody, { cpuRatio: 2.5 }, work)));
    await stopHvx(hvxBig);

    if (!CASES || CASES.some((c) => c.includes("clusterCache"))) {
      // The other cases' figures stand even if this setup (two more servers, 50 000 pods) fails.
      try {
        figures.push(...(await clusterCacheCases(pod, floor, work, servers)));
      } catch (err) {
        figures.push({ name: `http.clusterCache.failed: ${(err as Error).message}`, value: Number.NaN, unit: "", ok: false });
      }
    }
  } finally {
    for (const s of servers) await stopHvx(s);
    floor.child.kill("SIGTERM");
    await small.close();
    await big.close();
    rmSync(work, { recursive: true, force: true });
  }
  return figures;
}

/**
 * The cluster cache full: the fake API server (in this process) holds 5000 nodes and 50 000 pods
 * (mocks/kube-apiserver/bench-cluster.ts), the mock vCenter 250 hosts x 20 node VMs whose BIOS
 * UUIDs are the nodes' providerIDs. Typical: every binding older than hvx's start (no burst-guard
 * projection). Worst (issue 9 §5): then one new pod bound on a node of every host, within
 * `burstGuard.settleSeconds`, so every host carries a projection; the generated pods' CPU limits
 * put every host at or past its stacked cap.
 */
async function clusterCacheCases(pod: unknown, floor: Server, work: string, servers: HvxChild[]): Promise<BenchFigure[]> {
  const { benchNamespaces, benchNodes, benchPods, samplePod, startFakeKubeApiserver } = await import("../mocks/kube-apiserver/index.js");
  const NODES = 5000;
  const scenario = generateScenario({ hosts: 250, vmsPerHost: 20 });
  const vms = scenario.vms.map((vm, i) => ({
    ...vm,
    name: `node-${i}`,
    biosUuid: `4205a1b2-c3d4-e5f6-a7b8-${i.toString(16).padStart(12, "0")}`,
  }));
  const vc = await startMockVcenter({ scenario: { ...scenario, vms } });
  const fake = await startFakeKubeApiserver({ rbac: false });
  const figures: BenchFigure[] = [];
  try {
    fake.controls.bulkLoad({ namespaces: benchNamespaces(), nodes: benchNodes(NODES), pods: benchPods(50_000, NODES) });
    const kubeconfig = join(work, "kubeconfig.yaml");
    writeFileSync(kubeconfig, fake.kubeconfigYaml());
    const hvx = await startHvx(vc, scenario, work, "cluster", {
      kubernetes: { enabled: true, kubeconfig },
      burstGuard: { settleSeconds: 3600 },
    });
    servers.push(hvx);
    const body = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: Array.from({ length: 500 }, (_, i) => `node-${(i * 7) % NODES}`) });
    await untilClusterAware(hvx.port, body);
    figures.push(...(await compare("http.nodeNames.500.clusterCache.typical", hvx, floor, body, { cpuRatio: 3.0 }, work)));
    for (let h = 0; h < 250; h++) {
      fake.controls.upsertPod(
        samplePod({
          namespace: "team-0",
          name: `fresh-${h}`,
          nodeName: `node-${h * 20}`,
          cpu: "250m",
          memory: "512Mi",
          cpuLimit: "1",
          memoryLimit: "1Gi",
          owner: { kind: "ReplicaSet", name: `fresh-${h}` },
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 2000)); // the watch delivers the bindings
    figures.push(...(await compare("http.nodeNames.500.clusterCache.worst", hvx, floor, body, {}, work)));
    await stopHvx(hvx);
  } finally {
    await fake.close();
    await vc.close();
  }
  return figures;
}

/** Waits until hvx's answers use the cluster view (the stacked cap names a host), i.e. its informers have synced. */
async function untilClusterAware(port: number, body: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const res = await fetch(`http://127.0.0.1:${port}/filter`, { method: "POST", body, headers: { "content-type": "application/json" } });
    if ((await res.text()).includes("stacked overcommit")) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("hvx did not use its cluster cache within 180 s");
}

interface Server {
  readonly port: number;
  readonly child: ChildProcess;
}
interface HvxChild extends Server {
  readonly adminPort: number;
  stopped?: boolean;
}

interface Targets {
  /** hvx CPU per pair <= this x the floor's. */
  readonly cpuRatio?: number;
  /** hvx round-trip p99 <= this, ms. */
  readonly p99Ms?: number;
  /** hvx round-trip p50 <= this x the floor's. */
  readonly roundTripRatio?: number;
}

/** `HVX_BENCH_HTTP_CASES=nodeNames.500,nodes.500`: only those cases (for a CPU profile of one). */
const CASES = process.env.HVX_BENCH_HTTP_CASES?.split(",");

async function compare(
  key: string,
  hvx: HvxChild,
  floor: Server,
  body: string,
  targets: Targets,
  work: string,
  warmMs = WARM_MS,
): Promise<BenchFigure[]> {
  if (CASES && !CASES.some((c) => key === `http.${c}` || key.startsWith(`http.${c}.`))) return [];
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
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of ["hvx", "floor"] as const) {
      const server = side === "hvx" ? hvx : floor;
      const gcBefore = side === "hvx" ? await gcTotals(hvx.adminPort) : undefined;
      const round = await closedLoopRoundInProcess({
        port: server.port,
        pid: server.child.pid!,
        bodyFile,
        durationMs: ROUND_MS,
        warmMs,
        connections: CONNECTIONS,
      });
      rounds[side].push(round);
      if (gcBefore) hvxGc.push(gcDelta(gcBefore, await gcTotals(hvx.adminPort), round.pairs));
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const distDir = fileURLToPath(new URL("..", import.meta.url));

async function startFloor(): Promise<Server> {
  const child = spawn(process.execPath, [join(distDir, "bench", "extender-floor.js")], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await firstLine(child);
  return { port: (JSON.parse(line) as { port: number }).port, child };
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (d: Buffer) => {
      text += d.toString();
      const nl = text.indexOf("\n");
      if (nl >= 0) resolve(text.slice(0, nl));
    });
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before it was ready`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** `hvx serve --config FILE` against the mock, as a user starts it; resolves once /readyz answers 200. */
async function startHvx(
  vc: MockVcenterHandle,
  scenario: Scenario,
  work: string,
  name: string,
  extra: Record<string, unknown> = { kubernetes: { enabled: false } },
): Promise<HvxChild> {
  const port = await freePort();
  const adminPort = await freePort();
  const file = join(work, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      // Ready only once the first poll cycle has ended (as a user waits for /readyz), so no round runs on an empty inventory.
      server: { port, adminPort, shutdownDrainSeconds: 0, readinessGraceSeconds: 600 },
      vcenter: { url: vc.url, username: scenario.credentials.username, password: scenario.credentials.password },
      admission: { enabled: false },
      log: { level: "warn" },
      ...extra,
    }),
  );
  const prof = process.env.HVX_BENCH_CPU_PROF;
  const args = [...(prof ? ["--cpu-prof", "--cpu-prof-dir", prof] : []), join(distDir, "src", "cli.js"), "serve", "--config", file];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
  // 50 000 pods to list and 250 hosts of history to read on 2 shared cores: a minute was not always enough.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`hvx serve exited with ${child.exitCode}`);
    // And once the warm start of the load profiles from vCenter's history is over: it runs in the background after the first poll.
    if ((await ready(port)) && (await warmStarted(adminPort))) return { port, adminPort, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGTERM");
  throw new Error("hvx serve not ready within 180 s");
}

/** Whether the first warm start from vCenter's history has ended (its counter counts every host it tried, at once). */
async function warmStarted(adminPort: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${adminPort}/metrics`);
    const text = await res.text();
    let hosts = 0;
    for (const line of text.split("\n"))
      if (line.startsWith("hvx_prediction_history_hosts_total{")) hosts += Number(line.slice(line.lastIndexOf(" ") + 1));
    return hosts > 0;
  } catch {
    return false;
  }
}

async function ready(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

function stopHvx(s: HvxChild): Promise<void> {
  if (s.stopped || s.child.exitCode !== null) return Promise.resolve();
  s.stopped = true;
  return new Promise((resolve) => {
    s.child.once("exit", () => resolve());
    s.child.kill("SIGTERM");
  });
}
