import { benchNamespaces, benchNodes, benchPods, startFakeKubeApiserver } from "../mocks/kube-apiserver/index.js";
import { runBenchChild, whenBenchChild } from "./bench-child.js";
import type { BenchFigure } from "./figure.js";

/**
 * Informer start against the fake API server with 5000 nodes and 50 000 pods (issue 4, section 6).
 *
 * What is measured: the fake API server runs in this process; the informer runs alone in a
 * child Node.js process (`--expose-gc`), so its resident memory is not inflated by the fake's
 * 50 000 stored objects. `sync` is the wall time of `ClusterInformer.start()` (paged lists of
 * 500 through the unmodified @kubernetes/client-node, conversion to views, watches opened);
 * `rss` is the child's resident set after sync and a full GC, with the informers still
 * watching; `heapUsed` the V8 heap at the same moment; `latest` the first `latest()` call.
 */
const NODES = 5000;
const PODS = 50_000;
const CHILD_FLAG = "--informer-sync-child";

interface ChildResult {
  syncMs: number;
  rssMB: number;
  heapUsedMB: number;
  firstLatestMs: number;
  nodes: number;
  podsBound: number;
}

export async function run(): Promise<BenchFigure[]> {
  const fake = await startFakeKubeApiserver();
  try {
    fake.controls.bulkLoad({ namespaces: benchNamespaces(), nodes: benchNodes(NODES), pods: benchPods(PODS, NODES) });
    const result = await runBenchChild<ChildResult>(import.meta.url, CHILD_FLAG, fake.url);
    const expectedBound = PODS - Math.floor(PODS / 20);
    return [
      { name: "informer.sync.5000nodes.50000pods.ms", value: result.syncMs, unit: "ms", target: "<= 30000", ok: result.syncMs <= 30_000 },
      { name: "informer.sync.5000nodes.50000pods.rssMB", value: result.rssMB, unit: "MB", target: "<= 400", ok: result.rssMB <= 400 },
      { name: "informer.sync.5000nodes.50000pods.heapUsedMB", value: result.heapUsedMB, unit: "MB" },
      { name: "informer.latest.first.ms", value: result.firstLatestMs, unit: "ms" },
      {
        name: "informer.sync.podsBound",
        value: result.podsBound,
        unit: "pods",
        target: `= ${expectedBound}`,
        ok: result.podsBound === expectedBound && result.nodes === NODES,
      },
    ];
  } finally {
    await fake.close();
  }
}

async function child(url: string): Promise<void> {
  const { CoreV1Api, KubeConfig } = await import("@kubernetes/client-node");
  const { ClusterInformer } = await import("../src/cluster/cluster-informer.js");
  const { makeTimedApiClient } = await import("../src/cluster/timed-api-client.js");
  const { silentLogger } = await import("../src/observability/logger.js");
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "fake", server: url, skipTLSVerify: true }],
    users: [{ name: "fake", token: "fake-token" }],
    contexts: [{ name: "fake", cluster: "fake", user: "fake" }],
    currentContext: "fake",
  });
  const informer = new ClusterInformer({
    kubeConfig: kc,
    listApi: makeTimedApiClient(kc, CoreV1Api),
    defaults: { cpuMilli: 100, memoryBytes: 128 * 1024 * 1024 },
    log: silentLogger(),
    syncTimeoutMs: 120_000,
  });
  const t0 = performance.now();
  await informer.start();
  const syncMs = performance.now() - t0;
  const t1 = performance.now();
  const view = informer.latest();
  const firstLatestMs = performance.now() - t1;
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
  const mem = process.memoryUsage();
  let podsBound = 0;
  for (const pods of view.podsByNode.values()) podsBound += pods.length;
  const result: ChildResult = {
    syncMs: Math.round(syncMs),
    rssMB: Math.round(mem.rss / 1048576),
    heapUsedMB: Math.round(mem.heapUsed / 1048576),
    firstLatestMs: Math.round(firstLatestMs * 100) / 100,
    nodes: view.nodes.size,
    podsBound,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await informer.stop();
  process.exit(0);
}

whenBenchChild(CHILD_FLAG, child);
