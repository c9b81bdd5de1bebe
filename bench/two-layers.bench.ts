import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../mocks/fake-metrics-source.js";
import { parseConfig } from "../src/config/index.js";
import type { ClusterView, PodView } from "../src/model/cluster.js";
import type { InventoryView } from "../src/model/inventory.js";
import { ExtenderMetrics } from "../src/observability/extender-metrics.js";
import { silentLogger } from "../src/observability/logger.js";
import { buildAdminApp } from "../src/server/admin-app.js";
import { buildDebugHosts } from "../src/server/debug-view.js";
import { buildExtenderApp } from "../src/server/extender-app.js";
import { createExtenderHandlers } from "../src/server/extender-handlers.js";
import { buildAdviceView, buildOversellView, type TwoLayerSources } from "../src/server/two-layer-views.js";
import { syntheticCluster, syntheticInventory } from "./extender.bench.js";
import { percentile, sampleMs, type BenchFigure } from "./figure.js";

/**
 * Issue 12 section 5: `/debug/oversell` and `/debug/advice` over the 5000-node / 50 000-pod
 * cache (target: each under 200 ms), and whether a page refreshing them blocks the extender:
 * extender filter p99 over HTTP with and without the page refreshing, in the same run
 * (target: within 10 %). The machine may be loaded: compare the ratios, not the absolutes.
 */
export async function run(): Promise<BenchFigure[]> {
  const nowMs = Date.now();
  const config = parseConfig(undefined);
  const inventory = syntheticInventory(nowMs);
  const cluster = withScaledPods(syntheticCluster(nowMs));
  const figures: BenchFigure[] = [];

  // A new inventory object per call: the ledger is memoised per snapshot pair, so this measures
  // the cost after every poll (the worst case), not the memoised answer.
  let current: InventoryView = inventory;
  const sources: TwoLayerSources = {
    inventory: () => current,
    cluster: () => cluster,
    reservations: () => new Map([...inventory.vms.keys()].map((id, i) => [id, { memoryReservationMiB: i % 3 === 0 ? 0 : 32768, cpuReservationMhz: 0 }])),
    memoryPainSince: () => new Set([...inventory.hosts.keys()].filter((_, i) => i % 9 === 0)),
    hotSince: () => new Set([...inventory.hosts.keys()].filter((_, i) => i % 4 === 0)),
  };
  const fresh = () => (current = { ...inventory });
  const oversell = sampleMs(() => {
    fresh();
    JSON.stringify(buildOversellView(sources, config, nowMs));
  }, 3000, 10, 2);
  const advice = sampleMs(() => {
    fresh();
    JSON.stringify(buildAdviceView(sources, config, nowMs));
  }, 3000, 10, 2);
  const findings = buildAdviceView(sources, config, nowMs).findings.length;
  figures.push(
    { name: "twoLayers.debugOversell.5000nodes.p50Ms", value: percentile(oversell, 50), unit: "ms" },
    { name: "twoLayers.debugOversell.5000nodes.p99Ms", value: percentile(oversell, 99), unit: "ms", target: "< 200", ok: percentile(oversell, 99) < 200 },
    { name: "twoLayers.debugAdvice.5000nodes.p50Ms", value: percentile(advice, 50), unit: "ms" },
    { name: "twoLayers.debugAdvice.5000nodes.p99Ms", value: percentile(advice, 99), unit: "ms", target: "< 200", ok: percentile(advice, 99) < 200 },
    { name: "twoLayers.debugAdvice.5000nodes.findings", value: findings, unit: "findings" },
  );

  // The extender and the admin port in this process, as in hvx; a sequential client sends
  // filter requests (500 node names) while, in the second phase, the page refreshes.
  const incoming: PodView = { namespace: "payments", name: "p", uid: "incoming", requests: { cpuMilli: 250, memoryBytes: 2 ** 29 }, limits: { cpuMilli: 2000, memoryBytes: 2 ** 30 }, expectedDemand: { cpuMilli: 250, memoryBytes: 2 ** 29 }, terminal: false };
  const handlers = createExtenderHandlers({
    source: new FakeMetricsSource(inventory), policy: config, metrics: new ExtenderMetrics(new Registry()), log: silentLogger(), clock: () => nowMs,
    enrich: (ctx) => ({ ...ctx, cluster: { view: cluster, pod: incoming } }),
  });
  const extender = await listen(createServer(buildExtenderApp({ handlers, bodyLimitMB: 16 })));
  const admin = await listen(createServer(buildAdminApp({
    registry: new Registry(),
    debugHosts: () => buildDebugHosts(current, config, nowMs),
    debugViews: { oversell: () => buildOversellView(sources, config, nowMs), advice: () => buildAdviceView(sources, config, nowMs) },
  })));
  const pod = JSON.parse(readFileSync(new URL("../../test/fixtures/wire/filter-args-nodenames.json", import.meta.url), "utf8")).Pod;
  const body = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: Array.from({ length: 500 }, (_, i) => `node-${(i * 7) % 5000}`) });
  const filterOnce = async () => {
    const t0 = performance.now();
    const res = await fetch(`${extender.url}/filter`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    await res.arrayBuffer();
    return performance.now() - t0;
  };
  const REFRESH_MS = 1000; // 20x the default page refresh (every poll: 20 s): a conservative load
  const phase = async (refreshing: boolean, ms: number): Promise<number[]> => {
    const timer = refreshing
      ? setInterval(() => {
          fresh();
          for (const p of ["/debug/hosts", "/debug/oversell", "/debug/advice"]) void fetch(`${admin.url}${p}`).then((r) => r.arrayBuffer());
        }, REFRESH_MS)
      : undefined;
    const out: number[] = [];
    const end = performance.now() + ms;
    while (performance.now() < end) out.push(await filterOnce());
    if (timer) clearInterval(timer);
    return out.sort((a, b) => a - b);
  };
  try {
    await phase(false, 1000); // warm-up
    // Alternate the phases so background load on the machine hits both alike.
    const quiet: number[] = [];
    const busy: number[] = [];
    for (let round = 0; round < 3; round++) {
      quiet.push(...(await phase(false, 4000)));
      busy.push(...(await phase(true, 4000)));
    }
    quiet.sort((a, b) => a - b);
    busy.sort((a, b) => a - b);
    const ratio = percentile(busy, 99) / percentile(quiet, 99);
    figures.push(
      { name: "twoLayers.extenderFilter500.http.withoutPage.p99Ms", value: percentile(quiet, 99), unit: "ms" },
      { name: "twoLayers.extenderFilter500.http.pageEvery1s.p99Ms", value: percentile(busy, 99), unit: "ms" },
      { name: "twoLayers.extenderFilter500.http.p99Ratio", value: ratio, unit: "x", target: "<= 1.10", ok: ratio <= 1.1 },
      { name: "twoLayers.extenderFilter500.http.withoutPage.p50Ms", value: percentile(quiet, 50), unit: "ms" },
      { name: "twoLayers.extenderFilter500.http.pageEvery1s.p50Ms", value: percentile(busy, 50), unit: "ms" },
    );
  } finally {
    await extender.close();
    await admin.close();
  }
  return figures;
}

/** Scales every other pod of namespaces spread over the cluster, as the webhook would (ratio 2). */
function withScaledPods(view: ClusterView): ClusterView {
  const podsByNode = new Map<string, PodView[]>();
  let i = 0;
  for (const [node, pods] of view.podsByNode) {
    podsByNode.set(node, pods.map((p) => {
      const ns = `team-${i % 12}`;
      const scaled = i++ % 2 === 0;
      return { ...p, namespace: ns, ...(scaled ? { originalRequests: { cpuMilli: p.requests.cpuMilli * 2, memoryBytes: p.requests.memoryBytes * 2 } } : {}) };
    }));
  }
  return { ...view, podsByNode, namespaces: new Map(Array.from({ length: 12 }, (_, k) => [`team-${k}`, {}])) };
}

async function listen(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}
