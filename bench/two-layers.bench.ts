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
import { TwoLayerViewCache } from "../src/server/two-layer-view-cache.js";
import { buildAdviceView, buildOversellView, type TwoLayerSources } from "../src/server/two-layer-views.js";
import { syntheticCluster, syntheticInventory } from "./extender.bench.js";
import { percentile, type BenchFigure } from "./figure.js";

/**
 * Issue 12 section 5: `/debug/oversell` and `/debug/advice` over the 5000-node / 50 000-pod
 * cache (target: each under 200 ms), and whether a page refreshing them blocks the extender
 * (target: extender filter p99 over HTTP with the page refreshing within 10 % of without).
 *
 * Every "poll" installs a new inventory and a new cluster view in which 1 % of the nodes'
 * pod lists changed (as the informer's snapshots do), for the extender and the views alike.
 * The views answer through `TwoLayerViewCache` as in hvx; the old way (every request computes
 * both views from scratch) runs in the same process as a reference. Each extender figure is
 * the median of 3 rounds, each round alternating a phase without the page and one with it
 * (same polls in both), so background load hits both alike: compare ratios, not absolutes.
 */
const ROUNDS = 3;
const CHURN_EVERY = 100; // 1 node in 100 gets a new pod list per poll

export async function run(): Promise<BenchFigure[]> {
  const nowMs = Date.now();
  const config = parseConfig(undefined);
  const pollMs = config.vcenter.pollIntervalSeconds * 1000; // also the /ui page's refresh interval
  const baseInventory = syntheticInventory(nowMs);
  const source = new FakeMetricsSource(baseInventory);
  let cluster = withScaledPods(syntheticCluster(nowMs));
  let polls = 0;
  const poll = () => {
    source.set({ ...baseInventory });
    cluster = churned(cluster, polls++);
  };
  const reservations = new Map([...baseInventory.vms.keys()].map((id, i) => [id, { memoryReservationMiB: i % 3 === 0 ? 0 : 32768, cpuReservationMhz: 0 }]));
  const sources: TwoLayerSources = {
    inventory: () => source.latest(),
    cluster: () => cluster,
    reservations: () => new Map(reservations),
    memoryPainSince: () => new Set([...baseInventory.hosts.keys()].filter((_, i) => i % 9 === 0)),
    hotSince: () => new Set([...baseInventory.hosts.keys()].filter((_, i) => i % 4 === 0)),
  };
  const figures: BenchFigure[] = [];
  const ms = (name: string, xs: number[], target?: number) => {
    xs.sort((a, b) => a - b);
    figures.push({ name: `${name}.p50Ms`, value: percentile(xs, 50), unit: "ms" });
    const p99 = percentile(xs, 99);
    figures.push(target === undefined ? { name: `${name}.p99Ms`, value: p99, unit: "ms" } : { name: `${name}.p99Ms`, value: p99, unit: "ms", target: `< ${target}`, ok: p99 < target });
  };

  // 1. Latency of each view, with nothing else running.
  const RUNS = 20;
  const direct = { oversell: [] as number[], advice: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    poll();
    direct.oversell.push(await timed(async () => JSON.stringify(buildOversellView(sources, config, nowMs))));
    direct.advice.push(await timed(async () => JSON.stringify(buildAdviceView(sources, config, nowMs))));
  }
  ms("twoLayers.direct.debugOversell", direct.oversell);
  ms("twoLayers.direct.debugAdvice", direct.advice);
  const cold = { oversell: [] as number[], advice: [] as number[] };
  for (let i = 0; i < 5; i++) {
    cold.oversell.push(await timed(async () => JSON.stringify(await new TwoLayerViewCache({ sources, policy: config, clock: () => nowMs }).oversell())));
    cold.advice.push(await timed(async () => JSON.stringify(await new TwoLayerViewCache({ sources, policy: config, clock: () => nowMs }).advice())));
  }
  ms("twoLayers.cache.firstSnapshot.debugOversell", cold.oversell, 200);
  ms("twoLayers.cache.firstSnapshot.debugAdvice", cold.advice, 200);
  const views = new TwoLayerViewCache({ sources, policy: config, clock: () => nowMs });
  await views.oversell();
  const afterPoll = { oversell: [] as number[], advice: [] as number[] };
  const hit = { oversell: [] as number[], advice: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    poll();
    const which = i % 2 === 0 ? "oversell" : "advice";
    afterPoll[which].push(await timed(async () => JSON.stringify(await views[which]())));
    hit.oversell.push(await timed(async () => JSON.stringify(await views.oversell())));
    hit.advice.push(await timed(async () => JSON.stringify(await views.advice())));
  }
  ms("twoLayers.cache.afterPoll.debugOversell", afterPoll.oversell, 200);
  ms("twoLayers.cache.afterPoll.debugAdvice", afterPoll.advice, 200);
  ms("twoLayers.cache.sameSnapshot.debugOversell", hit.oversell);
  ms("twoLayers.cache.sameSnapshot.debugAdvice", hit.advice);
  figures.push({ name: "twoLayers.debugAdvice.5000nodes.findings", value: (await views.advice()).findings.length, unit: "findings" });

  // 2. The extender and the admin port in this process, as in hvx; a sequential client sends
  // filter requests (500 node names) while, in the page phases, the page refreshes as /ui does.
  const incoming: PodView = { namespace: "payments", name: "p", uid: "incoming", requests: { cpuMilli: 250, memoryBytes: 2 ** 29 }, limits: { cpuMilli: 2000, memoryBytes: 2 ** 30 }, expectedDemand: { cpuMilli: 250, memoryBytes: 2 ** 29 }, terminal: false };
  const handlers = createExtenderHandlers({
    source, policy: config, metrics: new ExtenderMetrics(new Registry()), log: silentLogger(), clock: () => nowMs,
    enrich: (ctx) => ({ ...ctx, cluster: { view: cluster, pod: incoming } }),
  });
  type Page = "ui" | "viewsOnly" | "uiDirect";
  let page: Page = "ui";
  let pageViews = new TwoLayerViewCache({ sources, policy: config, clock: () => nowMs });
  const extender = await listen(createServer(buildExtenderApp({ handlers, bodyLimitMB: 16 })));
  const admin = await listen(createServer(buildAdminApp({
    registry: new Registry(),
    debugHosts: () => buildDebugHosts(source.latest(), config, nowMs),
    debugViews: {
      oversell: () => (page === "uiDirect" ? buildOversellView(sources, config, nowMs) : pageViews.oversell()),
      advice: () => (page === "uiDirect" ? buildAdviceView(sources, config, nowMs) : pageViews.advice()),
    },
  })));
  const pod = JSON.parse(readFileSync(new URL("../../test/fixtures/wire/filter-args-nodenames.json", import.meta.url), "utf8")).Pod;
  const body = JSON.stringify({ Pod: pod, Nodes: null, NodeNames: Array.from({ length: 500 }, (_, i) => `node-${(i * 7) % 5000}`) });
  const filterOnce = () => timed(async () => {
    const res = await fetch(`${extender.url}/filter`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    await res.arrayBuffer();
  });
  // What /ui fetches on each refresh; viewsOnly leaves out /debug/hosts (the extender's own debug view, not cached).
  const refreshPage = () => Promise.all((page === "viewsOnly" ? ["/debug/oversell", "/debug/advice"] : ["/debug/hosts", "/debug/oversell", "/debug/advice"]).map((p) => fetch(`${admin.url}${p}`).then((r) => r.arrayBuffer())));
  /** Polls every `everyMs` from the phase's start; the page (if any) refreshes `pageOffsetMs` after each poll. */
  const phase = async (withPage: boolean, lengthMs: number, everyMs: number): Promise<{ p99: number; p50: number; requests: number }> => {
    const timers: NodeJS.Timeout[] = [];
    const refreshes: Promise<unknown>[] = [];
    const tick = () => {
      poll();
      if (withPage) timers.push(setTimeout(() => refreshes.push(refreshPage()), Math.min(1000, everyMs / 2)));
    };
    tick();
    timers.push(setInterval(tick, everyMs));
    const out: number[] = [];
    const end = performance.now() + lengthMs;
    while (performance.now() < end) out.push(await filterOnce());
    for (const t of timers) clearTimeout(t);
    await Promise.all(refreshes);
    out.sort((a, b) => a - b);
    return { p99: percentile(out, 99), p50: percentile(out, 50), requests: out.length };
  };
  const compare = async (label: string, lengthMs: number, everyMs: number, pages: readonly Page[]) => {
    const without: number[] = [];
    const withPage = new Map<string, number[]>(pages.map((p) => [p, []]));
    const ratios = new Map<string, number[]>(pages.map((p) => [p, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const quiet = await phase(false, lengthMs, everyMs);
      without.push(quiet.p99);
      for (const p of pages) {
        page = p;
        pageViews = new TwoLayerViewCache({ sources, policy: config, clock: () => nowMs });
        await pageViews.oversell(); // as in hvx, where the cache lives as long as the process
        const busy = await phase(true, lengthMs, everyMs);
        withPage.get(p)!.push(busy.p99);
        ratios.get(p)!.push(busy.p99 / quiet.p99);
      }
    }
    figures.push({ name: `twoLayers.extenderFilter500.${label}.withoutPage.p99Ms`, value: median(without), unit: "ms (median of 3)" });
    for (const p of pages) {
      const r = median(ratios.get(p)!);
      const name = `twoLayers.extenderFilter500.${label}.${p}`;
      figures.push({ name: `${name}.p99Ms`, value: median(withPage.get(p)!), unit: "ms (median of 3)" });
      figures.push(p === "uiDirect" ? { name: `${name}.p99Ratio`, value: r, unit: "x (median of 3)" } : { name: `${name}.p99Ratio`, value: r, unit: "x (median of 3)", target: "<= 1.10", ok: r <= 1.1 });
    }
  };
  try {
    await phase(false, 1000, 1000); // warm-up
    // As deployed: a poll every pollIntervalSeconds, the page refreshing once per poll.
    await compare(`pollAndPageEvery${pollMs / 1000}s`, pollMs, pollMs, ["ui"]);
    // Harsher: a new snapshot every second and the page refreshing after each one (every
    // refresh has a new snapshot to compute); the views alone, and the old per-request
    // computation (uiDirect) beside them.
    await compare("pollAndPageEvery1s", 5000, 1000, ["ui", "viewsOnly", "uiDirect"]);
  } finally {
    await extender.close();
    await admin.close();
  }
  return figures;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** A new snapshot as the informer makes one: the lists of 1 node in CHURN_EVERY replaced, the others shared. */
function churned(view: ClusterView, poll: number): ClusterView {
  const podsByNode = new Map(view.podsByNode);
  let i = 0;
  for (const [node, pods] of view.podsByNode) if (i++ % CHURN_EVERY === poll % CHURN_EVERY) podsByNode.set(node, [...pods]);
  return { ...view, podsByNode, lastEventMs: (view.lastEventMs ?? 0) + 1 };
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
