import { performance } from "node:perf_hooks";
import { Registry } from "prom-client";
import { spawnExporter, startPrometheus } from "../mocks/prometheus-exporter/index.js";
import { generateScenario, startMockVcenter, type MockVcenterHandle } from "../mocks/vcenter/index.js";
import { configSchema } from "../src/config/schema.js";
import { silentLogger } from "../src/observability/logger.js";
import { buildPrometheusSourceParts, PrometheusPoller } from "../src/prometheus/index.js";
import { buildVcenterParts, VcenterPoller } from "../src/vsphere/index.js";
import type { BenchFigure } from "./figure.js";

const HOSTS = 200;
const VMS_PER_HOST = 20;
const LATENCY_MS = 20;
const SCRAPE_INTERVAL_S = 5;

/**
 * Issue 11: one cycle over 200 hosts / 4000 VMs through the real Prometheus (Debian's
 * package), for both flavours, and vCenter's requests per steady cycle for the `vcenter`
 * source next to the `telegraf` flavour (which reads only the inventory from vCenter). The
 * mock vCenter answers every request after 20 ms, as in the poll-cycle benchmark, and runs in
 * this process with the pollers; the fake exporters run in their own processes and serve the
 * same generated scenario, scraped every 5 s.
 */
export async function run(): Promise<BenchFigure[]> {
  const scenario = generateScenario({ hosts: HOSTS, vmsPerHost: VMS_PER_HOST });
  const vcenter = await startMockVcenter({ scenario });
  vcenter.controls.setFaults({ latencyMs: LATENCY_MS });
  // Each exporter in its own process (same generated scenario: same seed), off this event loop.
  const telegraf = await spawnExporter("telegraf", `generated:${HOSTS}x${VMS_PER_HOST}`);
  const exporter = await spawnExporter("vmware_exporter", `generated:${HOSTS}x${VMS_PER_HOST}`);
  const prometheus = await startPrometheus([telegraf.target, exporter.target], SCRAPE_INTERVAL_S);
  const stops: Array<() => void> = [];
  try {
    await prometheus.waitForTargets(60_000);
    const config = configSchema.parse({
      vcenter: { url: vcenter.url, username: scenario.credentials.username, password: scenario.credentials.password },
    });
    const common = { maxMetricAgeSeconds: 120, log: silentLogger() };
    const vc = new VcenterPoller({
      vcenter: config.vcenter,
      thresholds: config.thresholds,
      ...common,
      ...buildVcenterParts({ vcenter: config.vcenter, log: common.log, registry: new Registry() }),
    });
    const promFor = (flavour: "telegraf" | "vmware_exporter") =>
      configSchema.parse({ prometheus: { url: prometheus.url, flavour, selector: 'job="vsphere"' } }).prometheus;
    const tgRegistry = new Registry();
    const tg = new PrometheusPoller({
      prometheus: promFor("telegraf"),
      ...common,
      ...buildPrometheusSourceParts({ prometheus: promFor("telegraf"), vcenter: config.vcenter, log: common.log, registry: tgRegistry }),
    });
    const exRegistry = new Registry();
    const ex = new PrometheusPoller({
      prometheus: promFor("vmware_exporter"),
      ...common,
      ...buildPrometheusSourceParts({
        prometheus: promFor("vmware_exporter"),
        vcenter: config.vcenter,
        log: common.log,
        registry: exRegistry,
      }),
    });
    stops.push(
      () => vc.stop(),
      () => tg.stop(),
      () => ex.stop(),
    );

    const vcCycle = await steadyCycle(vcenter, () => vc.pollOnce());
    const tgCycle = await steadyCycle(vcenter, () => tg.pollOnce());
    const exCycle = await steadyCycle(vcenter, () => ex.pollOnce());
    for (const [name, p] of [
      ["telegraf", tg],
      ["vmware_exporter", ex],
    ] as const) {
      if (p.latest().vms.size !== HOSTS * VMS_PER_HOST) throw new Error(`prometheus-source bench: ${name} saw ${p.latest().vms.size} VMs`);
    }
    const queries = async (r: Registry) =>
      (await r.getSingleMetric("hvx_prometheus_queries_total")!.get()).values.reduce((a, v) => a + v.value, 0) / 2;
    return [
      { name: "prom.telegraf.200h4000vm.steadyMs", value: tgCycle.ms, unit: "ms" },
      { name: "prom.vmware_exporter.200h4000vm.steadyMs", value: exCycle.ms, unit: "ms" },
      { name: "poll.vcenter.200h4000vm.steadyMs (for comparison)", value: vcCycle.ms, unit: "ms" },
      { name: "vcenter.requestsPerCycle.source=vcenter", value: vcCycle.requests, unit: "requests" },
      { name: "vcenter.requestsPerCycle.source=vcenter.queryPerf", value: vcCycle.queryPerf, unit: "QueryPerf calls" },
      { name: "vcenter.requestsPerCycle.source=telegraf", value: tgCycle.requests, unit: "requests" },
      {
        name: "vcenter.requestsPerCycle.source=telegraf.queryPerf",
        value: tgCycle.queryPerf,
        unit: "QueryPerf calls",
        target: "= 0",
        ok: tgCycle.queryPerf === 0,
      },
      {
        name: "vcenter.requestsPerCycle.source=vmware_exporter",
        value: exCycle.requests,
        unit: "requests",
        target: "= 0",
        ok: exCycle.requests === 0,
      },
      { name: "prom.queriesPerCycle.telegraf", value: await queries(tgRegistry), unit: "instant queries" },
      { name: "prom.queriesPerCycle.vmware_exporter", value: await queries(exRegistry), unit: "instant queries" },
    ];
  } finally {
    for (const stop of stops) stop();
    await prometheus.close();
    await telegraf.close();
    await exporter.close();
    await vcenter.close();
  }
}

/** A cold cycle (session, catalogue, BIOS UUIDs), then one steady cycle, timed, with vCenter's requests during it. */
async function steadyCycle(
  vcenter: MockVcenterHandle,
  cycle: () => Promise<void>,
): Promise<{ ms: number; requests: number; queryPerf: number }> {
  await cycle();
  const before = vcenter.controls.stats();
  const start = performance.now();
  await cycle();
  const ms = Math.round(performance.now() - start);
  const after = vcenter.controls.stats();
  const sum = (s: typeof before) => Object.values(s.requestsByRoute).reduce((a, b) => a + b, 0);
  return { ms, requests: sum(after) - sum(before), queryPerf: after.queryPerfCalls - before.queryPerfCalls };
}
