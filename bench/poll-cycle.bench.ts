import { performance } from "node:perf_hooks";
import { Registry } from "prom-client";
import { generateScenario, startMockVcenter } from "../mocks/vcenter/index.js";
import { configSchema } from "../src/config/schema.js";
import { silentLogger } from "../src/observability/logger.js";
import { VcenterPoller } from "../src/vsphere/vcenter-poller.js";
import type { BenchFigure } from "./figure.js";

const HOSTS = 200;
const VMS_PER_HOST = 20;
const LATENCY_MS = 20;
const CYCLE_TARGET_MS = 3000;
const RSS_TARGET_MB = 200;

/**
 * One vCenter poll cycle over 200 hosts / 4000 VMs against the in-process mock with 20 ms
 * injected latency per request, default maxConcurrency (8). The first (cold) cycle also
 * fetches every VM's BIOS UUID once; the steady cycle is what runs every pollIntervalSeconds.
 * Steady = median of three cycles. Resident memory is read after the cycles, with the
 * mock (and its CPU) in the same process.
 */
export async function run(): Promise<BenchFigure[]> {
  const mock = await startMockVcenter({ scenario: generateScenario({ hosts: HOSTS, vmsPerHost: VMS_PER_HOST }) });
  mock.controls.setFaults({ latencyMs: LATENCY_MS });
  const vcenter = configSchema.parse({
    vcenter: { url: mock.url, username: "administrator@vsphere.local", password: "hvx-demo" },
  }).vcenter;
  const poller = new VcenterPoller({ vcenter, maxMetricAgeSeconds: 120, log: silentLogger(), registry: new Registry() });
  try {
    const coldMs = await timed(() => poller.pollOnce());
    const steady: number[] = [];
    for (let i = 0; i < 3; i += 1) steady.push(await timed(() => poller.pollOnce()));
    const steadyMs = median(steady);
    const view = poller.latest();
    if (view.vms.size !== HOSTS * VMS_PER_HOST) throw new Error(`poll-cycle bench: expected ${HOSTS * VMS_PER_HOST} VMs, got ${view.vms.size}`);
    (globalThis as { gc?: () => void }).gc?.();
    const rssMB = process.memoryUsage().rss / (1024 * 1024);
    const requests = mock.controls.stats().requestsByRoute;
    const total = Object.values(requests).reduce((a, b) => a + b, 0);
    return [
      { name: "poll.cycle.200h4000vm.steadyMs", value: round(steadyMs), unit: "ms", target: `<= ${CYCLE_TARGET_MS}`, ok: steadyMs <= CYCLE_TARGET_MS },
      { name: "poll.cycle.200h4000vm.coldMs", value: round(coldMs), unit: "ms" },
      { name: "poll.cycle.200h4000vm.requests", value: total, unit: "requests" },
      { name: "poll.cycle.200h4000vm.rssMB", value: round(rssMB), unit: "MB", target: `<= ${RSS_TARGET_MB}`, ok: rssMB <= RSS_TARGET_MB },
    ];
  } finally {
    poller.stop();
    await mock.close();
  }
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const round = (x: number) => Math.round(x * 10) / 10;
