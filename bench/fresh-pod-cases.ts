import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { sampleNamespace } from "../mocks/kube-apiserver/index.js";
import type { RoundResult } from "./closed-loop.js";
import { closedLoopRoundInProcess } from "./closed-loop-process.js";
import type { ClusterWorld } from "./cluster-world.js";
import { caseWanted, compare, nextRoundFirstPod, SERIAL, STEADY_WARM_MS } from "./compare-rounds.js";
import { percentile, type BenchFigure } from "./figure.js";
import { startHvx, stopHvx, untilClusterAware, warmStarted, type HvxChild, type Server } from "./hvx-process.js";

/**
 * Issue 29 §5: the path production takes. kube-scheduler sends every pod once to filter and once
 * to prioritize, a new pod every time, and binds it; the cluster view changes with every binding.
 * Every pair here is a new pod of the same Deployment (fresh-pods.ts), so no memo keyed on the
 * body, the pod or its decisions can answer for it.
 */
const PLAIN_TARGETS = { cpuRatio: 1.5, p99Ms: 2 };
const BOUND_TARGETS = { cpuRatio: 3.0, p99Ms: 5 };
const WARM_START_P99_MS = 20;
/**
 * Fresh pods a round keeps bound (older ones are deleted as new ones bind): the cluster stays in
 * its steady state. Kept all, the cluster's 250 hosts reached the stacked cap after about 8000
 * of the template's pods (2 CPU limits each) and every filter then rejected every candidate.
 */
const KEEP_BOUND = 1000;
/** Rounds during the warm start are short: the last one may run past its end. */
const WARM_START_ROUND_MS = Number(process.env.HVX_BENCH_WARM_START_ROUND_MS ?? 2000);

/** `NodeNames` 500, no cluster view, in the 20-s steady state (STEADY_WARM_MS of load before each round). */
export async function freshPlainCase(hvx: HvxChild, floor: Server, args: string, work: string): Promise<BenchFigure[]> {
  const options = { warmMs: STEADY_WARM_MS, fresh: {} };
  return [
    ...(await compare("http.fresh.nodeNames.500", hvx, floor, args, PLAIN_TARGETS, work, options)),
    ...(await compare("http.fresh.nodeNames.500.serial", hvx, floor, args, { p99Ms: PLAIN_TARGETS.p99Ms }, work, {
      ...options,
      connections: SERIAL,
    })),
  ];
}

export const FRESH_CLUSTER_KEYS = [
  "http.fresh.clusterCache.bound",
  "http.fresh.clusterCache.warmStart.serial",
  "http.fresh.clusterCache.bound.serial",
];

/**
 * The default install mode (hvx watching the cluster through its informers, default settings)
 * on the full cluster cache, each pod created pending before its filter and bound to its
 * best-scored node after its prioritize. hvx starts as after a restart; from the moment its
 * informers have synced, pairs run serially in short rounds until the warm start from vCenter's
 * history is over (its p99 is the figure), then the steady rounds against the floor.
 */
export async function freshClusterCases(
  world: ClusterWorld,
  pod: { metadata: { namespace: string } },
  floor: Server,
  work: string,
  servers: HvxChild[],
): Promise<BenchFigure[]> {
  // The real API server refuses a pod in a namespace that does not exist.
  world.fake.controls.upsertNamespace(sampleNamespace(pod.metadata.namespace));
  const hvx = await startHvx(
    world.vc,
    world.scenario,
    work,
    "cluster-default",
    { kubernetes: { enabled: true, kubeconfig: world.kubeconfig } },
    false,
  );
  servers.push(hvx);
  const args = world.argsFor(pod);
  await untilClusterAware(hvx, args);
  const [boundKey, warmKey, serialKey] = FRESH_CLUSTER_KEYS as [string, string, string];
  // What the API server bound in each phase (warm-up included): every pair's pod, or the generator would have failed.
  const bindings = () => world.fake.controls.stats().bindings;
  const podsBound = (key: string, from: number): BenchFigure => ({ name: `${key}.podsBound`, value: bindings() - from, unit: "pods" });
  let from = bindings();
  const warm = await duringWarmStart(warmKey, hvx, args, work, world);
  if (warm.length > 0) warm.push(podsBound(warmKey, from));
  while (!(await warmStarted(hvx.adminPort))) await new Promise((r) => setTimeout(r, 500));
  from = bindings();
  const fresh = { kube: world.kube, candidates: world.candidates, keepBound: KEEP_BOUND };
  const bound = await compare(boundKey, hvx, floor, args, BOUND_TARGETS, work, { fresh });
  if (bound.length > 0) bound.push(podsBound(boundKey, from));
  const serial = await compare(serialKey, hvx, floor, args, { p99Ms: BOUND_TARGETS.p99Ms }, work, { fresh, connections: SERIAL });
  await stopHvx(hvx);
  return [...bound, ...serial, ...warm];
}

/**
 * Fresh bound pairs while the warm start lasts, one at a time as kube-scheduler sends them
 * (SERIAL); every round trip of every round pooled.
 */
async function duringWarmStart(
  key: string,
  hvx: HvxChild,
  args: string,
  work: string,
  { kube, candidates }: Pick<ClusterWorld, "kube" | "candidates">,
): Promise<BenchFigure[]> {
  if (!caseWanted(key)) return [];
  const bodyFile = join(work, `${key}.json`);
  writeFileSync(bodyFile, args);
  const rounds: RoundResult[] = [];
  while (!(await warmStarted(hvx.adminPort))) {
    rounds.push(
      await closedLoopRoundInProcess({
        port: hvx.port,
        pid: hvx.child.pid!,
        bodyFile,
        durationMs: WARM_START_ROUND_MS,
        warmMs: 0,
        connections: SERIAL,
        fresh: { firstPod: nextRoundFirstPod(), kube, candidates, keepBound: KEEP_BOUND },
      }),
    );
  }
  if (rounds.length === 0)
    return [{ name: `${key}: not measured, the warm start ended before the informers synced`, value: Number.NaN, unit: "", ok: false }];
  const trips = rounds.flatMap((r) => r.roundTripsMs).sort((a, b) => a - b);
  const pairs = rounds.reduce((a, r) => a + r.pairs, 0);
  const elapsedMs = rounds.reduce((a, r) => a + r.elapsedMs, 0);
  const p99 = percentile(trips, 99);
  return [
    { name: `${key}.hvx.measuredMs`, value: elapsedMs, unit: "ms" },
    { name: `${key}.hvx.pairsPerSecond`, value: (pairs * 1000) / elapsedMs, unit: "filter+prioritize/s" },
    { name: `${key}.hvx.roundTrip.p50Ms`, value: percentile(trips, 50), unit: "ms" },
    { name: `${key}.hvx.roundTrip.p99Ms`, value: p99, unit: "ms", target: `<= ${WARM_START_P99_MS}`, ok: p99 <= WARM_START_P99_MS },
    // The warm start's own work (reading and indexing history) lands in this CPU too.
    { name: `${key}.hvx.serverCpuMsPerPair`, value: rounds.reduce((a, r) => a + r.serverCpuMs, 0) / pairs, unit: "ms CPU/pair" },
  ];
}
