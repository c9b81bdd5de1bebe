import { GCProfiler } from "node:v8";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { ClusterView } from "../src/model/cluster.js";
import type { InventoryView, VmView } from "../src/model/inventory.js";
import { registerHostGauges, type HostGaugeDeps } from "../src/observability/host-gauges.js";
import { registerNodeHeatGauge } from "../src/observability/node-heat-gauge.js";
import { registerNodeInfoGauge } from "../src/observability/node-info-gauge.js";
import { TextFamilyRegistry } from "../src/observability/text-family-registry.js";
import { DEFAULT_POLICY } from "../test/fixtures/policy.js";
import { registerOldHostGauges, registerOldNodeFamilies } from "../test/fixtures/prom-client-inventory-gauges.js";
import { syntheticCluster, syntheticInventory } from "./extender.bench.js";
import { percentile, type BenchFigure } from "./figure.js";

const SCRAPES = 30;
const T0 = Date.parse("2026-11-29T10:00:00Z");
const VCENTER = "vc01.example.com";

/** The world the gauges read, changed between scrapes by a case. */
interface World {
  inventory: InventoryView;
  cluster: ClusterView;
  now: number;
}

/** What happens between two scrapes. */
const CASES: Record<string, (w: World, i: number) => void> = {
  // Pods bind (a new view, the same nodes), the clock moves on, no poll.
  steady: (w) => {
    w.cluster = { ...w.cluster, podsByNode: new Map(w.cluster.podsByNode) };
    w.now += 1_000;
  },
  // A poll: every host and VM a new object with a new sample, as every 20 s in production.
  newPoll: (w) => {
    w.now += 20_000;
    w.inventory = syntheticInventory(w.now);
    w.cluster = { ...w.cluster, podsByNode: new Map(w.cluster.podsByNode) };
  },
  // One VM moved to the next host (a new inventory where only that VM is a new object): every node is mapped again.
  vmMoved: (w, i) => {
    const id = `vm-${(i * 97) % 5000}`;
    const vm = w.inventory.vms.get(id)!;
    const hostId = `host-${(Number(vm.hostId.slice(5)) + 1) % 250}`;
    const vms = new Map<string, VmView>(w.inventory.vms);
    vms.set(id, { ...vm, hostId });
    w.inventory = { ...w.inventory, vms };
    w.now += 1_000;
  },
};

interface Scrape {
  readonly ms: number;
  /** CPU time of the main thread meanwhile (not the collector's helper threads). */
  readonly cpuMs: number;
  readonly mb: number;
  readonly bytes: number;
}

/**
 * `/metrics` at 5000 nodes / 250 hosts, in process (issue 29): a registry with the default process
 * metrics, the per-host gauges and the two per-node families, scraped 30 times per case, with the
 * inventory families as text (`TextFamilyRegistry`, "after") and as the prom-client gauges they
 * were ("before", test/fixtures/prom-client-inventory-gauges.ts), each path with its own world
 * objects (no memo shared), their scrapes alternating. Per scrape: the time to the text's UTF-8 bytes, as the reply sends them
 * (median, max), and the heap allocated (V8's GC profiler: growth plus what collections freed
 * meanwhile; MB = 10^6 bytes). Figures only: no target.
 */
export async function run(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const [name, change] of Object.entries(CASES)) {
    const paths = PATHS.map((path) => {
      const world: World = { inventory: syntheticInventory(T0), cluster: syntheticCluster(T0, "typical"), now: T0 };
      return { path, world, registry: path === "before" ? oldRegistry(world) : newRegistry(world), scrapes: [] as Scrape[] };
    });
    for (const p of paths) for (let i = 0; i < 3; i++) await scrapeOnce(p.registry); // first mapping and JIT out of the way
    // The two paths alternate, each first every other time, so that the machine's load falls on both alike.
    for (let i = 0; i < SCRAPES; i++) {
      for (const p of i % 2 === 0 ? paths : [...paths].reverse()) {
        change(p.world, i);
        collectGarbage();
        p.scrapes.push(await scrapeOnce(p.registry));
      }
    }
    for (const { path, scrapes } of paths) figures.push(...figuresOf(`metrics.scrape.${name}.${path}`, scrapes));
  }
  return figures;
}

const PATHS = ["before", "after"] as const;

function figuresOf(prefix: string, scrapes: readonly Scrape[]): BenchFigure[] {
  const sorted = (pick: (s: Scrape) => number) => scrapes.map(pick).sort((a, b) => a - b);
  const ms = sorted((s) => s.ms);
  return [
    { name: `${prefix}.medianMs`, value: percentile(ms, 50), unit: `ms (${SCRAPES} scrapes)` },
    { name: `${prefix}.maxMs`, value: ms[ms.length - 1]!, unit: "ms" },
    {
      name: `${prefix}.medianCpuMs`,
      value: percentile(
        sorted((s) => s.cpuMs),
        50,
      ),
      unit: "ms CPU (main thread)",
    },
    {
      name: `${prefix}.medianMB`,
      value: percentile(
        sorted((s) => s.mb),
        50,
      ),
      unit: "MB allocated/scrape",
    },
    { name: `${prefix}.textKB`, value: scrapes[0]!.bytes / 1000, unit: "KB" },
  ];
}

function deps(world: World): Required<HostGaugeDeps> & { readonly vcenter: string } {
  return {
    inventory: () => world.inventory,
    cluster: () => world.cluster,
    policy: DEFAULT_POLICY,
    clock: () => world.now,
    vcenter: VCENTER,
  };
}

function oldRegistry(world: World): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerOldHostGauges(registry, deps(world));
  registerOldNodeFamilies(registry, deps(world));
  return registry;
}

function newRegistry(world: World): Registry {
  const registry = new TextFamilyRegistry();
  collectDefaultMetrics({ register: registry });
  const d = deps(world);
  registerHostGauges(registry, d);
  registerNodeHeatGauge(registry, d);
  registerNodeInfoGauge(registry, { ...d, nodeMapping: DEFAULT_POLICY.nodeMapping });
  return registry;
}

async function scrapeOnce(registry: Registry): Promise<Scrape> {
  const profiler = new GCProfiler();
  profiler.start();
  const heapBefore = process.memoryUsage().heapUsed;
  const cpu0 = process.threadCpuUsage();
  const t0 = performance.now();
  const body = Buffer.from(await registry.metrics());
  const ms = performance.now() - t0;
  const cpu = process.threadCpuUsage(cpu0);
  const heapAfter = process.memoryUsage().heapUsed;
  let freed = 0;
  for (const gc of profiler.stop().statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, mb: (heapAfter - heapBefore + freed) / 1e6, bytes: body.length };
}

/** Between scrapes, with `--expose-gc` (`npm run bench`): a scrape pays for its own garbage only. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
