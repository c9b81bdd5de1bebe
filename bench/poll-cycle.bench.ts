import { performance } from "node:perf_hooks";
import { generateScenario, startMockVcenter } from "../mocks/vcenter/index.js";
import { runBenchChild, whenBenchChild } from "./bench-child.js";
import type { BenchFigure } from "./figure.js";

const HOSTS = 200;
const VMS_PER_HOST = 20;
const LATENCY_MS = 20;
const CYCLE_TARGET_MS = 3000;
const RSS_TARGET_MB = 200;
const CHILD_FLAG = "--poll-cycle-child";

/**
 * One vCenter poll cycle over 200 hosts / 4000 VMs with 20 ms injected latency per request,
 * default maxConcurrency (8). The mock vCenter runs in this process; the poller runs alone in
 * a child Node.js process (`--expose-gc`), as hvx would against a remote vCenter, so its
 * resident memory is hvx's own and not the mock's. The first (cold) cycle also fetches every
 * VM's BIOS UUID once; the steady cycle (median of three) is what runs every pollIntervalSeconds.
 * `rss` is the child's resident set after the cycles and a full GC, with the snapshot held.
 */
interface ChildResult {
  coldMs: number;
  steadyMs: number;
  vms: number;
  rssMB: number;
  heapUsedMB: number;
}

export async function run(): Promise<BenchFigure[]> {
  const mock = await startMockVcenter({ scenario: generateScenario({ hosts: HOSTS, vmsPerHost: VMS_PER_HOST }) });
  mock.controls.setFaults({ latencyMs: LATENCY_MS });
  try {
    const r = await runBenchChild<ChildResult>(import.meta.url, CHILD_FLAG, mock.url);
    if (r.vms !== HOSTS * VMS_PER_HOST) throw new Error(`poll-cycle bench: expected ${HOSTS * VMS_PER_HOST} VMs, got ${r.vms}`);
    const total = Object.values(mock.controls.stats().requestsByRoute).reduce((a, b) => a + b, 0);
    return [
      {
        name: "poll.cycle.200h4000vm.steadyMs",
        value: r.steadyMs,
        unit: "ms",
        target: `<= ${CYCLE_TARGET_MS}`,
        ok: r.steadyMs <= CYCLE_TARGET_MS,
      },
      { name: "poll.cycle.200h4000vm.coldMs", value: r.coldMs, unit: "ms" },
      { name: "poll.cycle.200h4000vm.requests", value: total, unit: "requests (4 cycles)" },
      { name: "poll.cycle.200h4000vm.rssMB", value: r.rssMB, unit: "MB", target: `<= ${RSS_TARGET_MB}`, ok: r.rssMB <= RSS_TARGET_MB },
      { name: "poll.cycle.200h4000vm.heapUsedMB", value: r.heapUsedMB, unit: "MB" },
    ];
  } finally {
    await mock.close();
  }
}

async function child(url: string): Promise<void> {
  const { Registry } = await import("prom-client");
  const { configSchema } = await import("../src/config/schema.js");
  const { silentLogger } = await import("../src/observability/logger.js");
  const { VcenterPoller } = await import("../src/vsphere/vcenter-poller.js");
  const { buildVcenterParts } = await import("../src/vsphere/build-vcenter-parts.js");
  const vcenter = configSchema.parse({ vcenter: { url, username: "administrator@vsphere.local", password: "hvx-demo" } }).vcenter;
  const parts = buildVcenterParts({ vcenter, log: silentLogger(), registry: new Registry() });
  const thresholds = configSchema.parse({}).thresholds;
  const poller = new VcenterPoller({ vcenter, maxMetricAgeSeconds: 120, thresholds, log: silentLogger(), ...parts });
  const coldMs = await timed(() => poller.pollOnce());
  const steady: number[] = [];
  for (let i = 0; i < 3; i += 1) steady.push(await timed(() => poller.pollOnce()));
  const view = poller.latest();
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) gc?.();
  const mem = process.memoryUsage();
  const result: ChildResult = {
    coldMs: Math.round(coldMs),
    steadyMs: Math.round([...steady].sort((a, b) => a - b)[1]!),
    vms: view.vms.size,
    rssMB: Math.round(mem.rss / 1048576),
    heapUsedMB: Math.round(mem.heapUsed / 1048576),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await poller.stop();
  process.exit(0);
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

whenBenchChild(CHILD_FLAG, child);
