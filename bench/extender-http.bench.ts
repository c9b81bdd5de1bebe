import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { samplePod } from "../mocks/kube-apiserver/index.js";
import { generateScenario, startMockVcenter } from "../mocks/vcenter/index.js";
import { realisticNode } from "../test/fixtures/wire-node.js";
import { startClusterWorld, type ClusterWorld } from "./cluster-world.js";
import { caseWanted, compare, STEADY_WARM_MS } from "./compare-rounds.js";
import type { BenchFigure } from "./figure.js";
import { FRESH_CLUSTER_KEYS, freshClusterCases, freshPlainCase } from "./fresh-pod-cases.js";
import { startFloor, startHvx, stopHvx, untilClusterAware, type HvxChild, type Server } from "./hvx-process.js";

/**
 * Issue 13: the extender over HTTP, as a user runs it, against the physical floor; issue 29:
 * first the path production takes, a new pod in every pair (fresh-pod-cases.ts), then the
 * repeated-body cases, kept for regression checking (they measure memos: the argument
 * decoder's memory, the reply memo and kept decisions always hit).
 *
 * `hvx serve` runs as a child process against the mock vCenter (in this process, polled every
 * 20 s as by default), with no Kubernetes cache unless the case says so; a bare `node:http`
 * server (extender-floor.ts) parses the same ExtenderArgs and answers every name. The same
 * closed-loop generator (4 keep-alive connections, filter then prioritize), in a process of its
 * own, drives both in alternating rounds of WARM_MS unmeasured then ROUND_MS measured; every
 * figure is the median of 3 rounds. Server CPU is user + system time of the server process
 * over the round (/proc/<pid>/stat), per filter+prioritize pair. The generator shares the two
 * cores with the server, so pairs per second understate the gap: CPU per pair is the figure
 * the targets are set on.
 *
 * `HVX_BENCH_HTTP_CASES=fresh` runs the fresh-pod cases alone. `HVX_BENCH_CPU_PROF=DIR` starts
 * hvx with `--cpu-prof --cpu-prof-dir DIR`; summarise with `node dist/bench/cpu-profile-summary.js DIR`.
 */
export async function run(): Promise<BenchFigure[]> {
  const fresh: BenchFigure[] = [];
  const repeated: BenchFigure[] = [];
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
    const args = (n: number) => JSON.stringify({ Pod: pod, Nodes: null, NodeNames: smallVms.slice(0, n).map((v) => v.name) });
    fresh.push(...(await freshPlainCase(hvxSmall, floor, args(500), work)));
    for (const n of [100, 500]) {
      repeated.push(
        ...(await compare(`http.nodeNames.${n}`, hvxSmall, floor, args(n), n === 500 ? { cpuRatio: 2.0, p99Ms: 2 } : {}, work)),
      );
      if (n === 500)
        repeated.push(
          ...(await compare("http.nodeNames.500.steady", hvxSmall, floor, args(n), { p99Ms: 2 }, work, { warmMs: STEADY_WARM_MS })),
        );
    }
    const items = smallVms.slice(0, 500).map((v, i) => realisticNode(v.name, v.biosUuid, i));
    const nodesBody = JSON.stringify({ Pod: pod, Nodes: { metadata: {}, items }, NodeNames: null });
    repeated.push({ name: "http.nodes.500.payloadKB", value: Buffer.byteLength(nodesBody) / 1024, unit: "KiB" });
    repeated.push(...(await compare("http.nodes.500", hvxSmall, floor, nodesBody, { roundTripRatio: 1.0 }, work)));
    await stopHvx(hvxSmall);

    if (caseWanted("http.nodeNames.5000")) {
      const hvxBig = await startHvx(big, bigScenario, work, "big");
      servers.push(hvxBig);
      const bigBody = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: bigScenario.vms.slice(0, 5000).map((v) => v.name) });
      repeated.push(...(await compare("http.nodeNames.5000", hvxBig, floor, bigBody, { cpuRatio: 2.5 }, work)));
      await stopHvx(hvxBig);
    }

    if ([...REPEATED_CLUSTER_KEYS, ...FRESH_CLUSTER_KEYS].some(caseWanted)) {
      // The other cases' figures stand even if this setup (more servers, 50 000 pods) fails.
      let world: ClusterWorld | undefined;
      try {
        world = await startClusterWorld(work);
        if (REPEATED_CLUSTER_KEYS.some(caseWanted)) repeated.push(...(await repeatedClusterCases(world, pod, floor, work, servers)));
        if (FRESH_CLUSTER_KEYS.some(caseWanted)) fresh.push(...(await freshClusterCases(world, pod, floor, work, servers)));
      } catch (err) {
        repeated.push({ name: `http.clusterCache.failed: ${(err as Error).message}`, value: Number.NaN, unit: "", ok: false });
      } finally {
        await world?.close();
      }
    }
  } finally {
    for (const s of servers) await stopHvx(s);
    floor.child.kill("SIGTERM");
    await small.close();
    await big.close();
    rmSync(work, { recursive: true, force: true });
  }
  return [...fresh, ...repeated];
}

const REPEATED_CLUSTER_KEYS = ["http.nodeNames.500.clusterCache.typical", "http.nodeNames.500.clusterCache.worst"];

/**
 * The repeated body on the full cluster cache, with `burstGuard.settleSeconds` 3600. Typical:
 * every binding older than hvx's start (no burst-guard projection). Worst (issue 9 §5): then
 * one new pod bound on a node of every host, within `settleSeconds`, so every host carries a
 * projection; the generated pods' CPU limits put every host at or past its stacked cap.
 */
async function repeatedClusterCases(
  world: ClusterWorld,
  pod: unknown,
  floor: Server,
  work: string,
  servers: HvxChild[],
): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const hvx = await startHvx(world.vc, world.scenario, work, "cluster", {
    kubernetes: { enabled: true, kubeconfig: world.kubeconfig },
    burstGuard: { settleSeconds: 3600 },
  });
  servers.push(hvx);
  const body = world.argsFor(pod);
  await untilClusterAware(hvx, body);
  figures.push(...(await compare(REPEATED_CLUSTER_KEYS[0]!, hvx, floor, body, { cpuRatio: 3.0 }, work)));
  for (let h = 0; h < 250; h++) {
    world.fake.controls.upsertPod(
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
  figures.push(...(await compare(REPEATED_CLUSTER_KEYS[1]!, hvx, floor, body, {}, work)));
  await stopHvx(hvx);
  return figures;
}
