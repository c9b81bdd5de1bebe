/**
 * How long the warm start from vCenter's history holds the event loop, in process: the mock
 * vCenter of the HTTP bench (250 hosts x 20 VMs, a week of history) runs in a worker thread,
 * the poller's first poll and its warm start on the main thread, where an event-loop delay
 * histogram (1-ms resolution) and CPU are measured. Run: `node dist/bench/warm-start-turns.js`.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { configSchema } from "../src/config/schema.js";
import { silentLogger } from "../src/observability/logger.js";
import { buildVcenterParts } from "../src/vsphere/build-vcenter-parts.js";
import { VcenterPoller } from "../src/vsphere/vcenter-poller.js";
import { Registry } from "prom-client";

const HOSTS = Number(process.env.HVX_BENCH_WARM_HOSTS ?? 250);

if (isMainThread) await main();
else await serveMock();

/** Gaps between timer turns (setTimeout 0 again and again), with their end on the monotonic clock. */
function watchGaps(): { list: Array<{ ms: number; endUs: bigint }>; stop(): void } {
  const list: Array<{ ms: number; endUs: bigint }> = [];
  let last = process.hrtime.bigint();
  let on = true;
  const tick = () => {
    const now = process.hrtime.bigint();
    list.push({ ms: Number(now - last) / 1e6, endUs: now / 1000n });
    last = now;
    if (on) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return { list, stop: () => (on = false) };
}

async function serveMock(): Promise<void> {
  const { generateScenario, startMockVcenter } = await import("../mocks/vcenter/index.js");
  const scenario = generateScenario({ hosts: HOSTS, vmsPerHost: 20 });
  const vc = await startMockVcenter({ scenario });
  parentPort!.postMessage({ url: vc.url, ...scenario.credentials });
}

async function main(): Promise<void> {
  const worker = new Worker(new URL(import.meta.url));
  const mock = await new Promise<{ url: string; username: string; password: string }>((r) => worker.once("message", r));
  const vcenter = configSchema.parse({ vcenter: mock }).vcenter;
  const log = silentLogger();
  const poller = new VcenterPoller({
    vcenter,
    maxMetricAgeSeconds: 120,
    thresholds: configSchema.parse({}).thresholds,
    log,
    ...buildVcenterParts({ vcenter, log, registry: new Registry() }),
    clock: Date.now,
    random: () => 1,
    prediction: { enabled: true },
  });
  await poller.pollOnce();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  delay.enable();
  const gaps = watchGaps();
  await poller.historySettled();
  gaps.stop();
  delay.disable();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const t1 = performance.now();
  await poller.pollOnce();
  const pollMs = performance.now() - t1;
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(
    `warm start, ${HOSTS} hosts: ${wallMs.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU (main thread and worker);` +
      ` event-loop delay p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms;` +
      ` next poll (forecasts for every host) ${pollMs.toFixed(0)} ms`,
  );
  const long = gaps.list.filter((g) => g.ms > 20);
  console.log(
    `turns over 20 ms: ${long.length}, ${long.reduce((a, g) => a + g.ms, 0).toFixed(0)} ms in all; longest: ` +
      long
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5)
        .map((g) => `${g.ms.toFixed(0)} ms (monotonic ${g.endUs} us)`)
        .join(", "),
  );
  await worker.terminate();
  process.exit(0);
}
