import { expect } from "chai";
import type { InventoryView } from "../../src/model/inventory.js";
import { registerHostGauges } from "../../src/observability/host-gauges.js";
import { TextFamilyRegistry } from "../../src/observability/text-family-registry.js";
import { seriesOf as seriesIn } from "../fixtures/exposition.js";
import { hostView, inventoryOf, NOW_MS } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

type Series = Array<{ labels: Record<string, string>; value: number }>;

async function seriesOf(registry: TextFamilyRegistry, name: string): Promise<Series> {
  const text = await registry.metrics();
  if (!text.includes(`# TYPE ${name} gauge\n`)) throw new Error(`${name} is not registered`);
  return seriesIn(text, name);
}

function setup(inventory: () => InventoryView, clock: () => number = () => NOW_MS) {
  const registry = new TextFamilyRegistry();
  registerHostGauges(registry, { inventory, policy: DEFAULT_POLICY, clock });
  return registry;
}

const t = DEFAULT_POLICY.thresholds;
// Host metrics at the fixture's defaults are cool; the hot one crosses the ready threshold.
const cool = hostView({
  id: "host-1",
  name: "esx-01",
  clusterName: "prod",
  metrics: { cpuReadyPercent: 1.5, cpuUsagePercent: 30, memUsagePercent: 40, balloonPercent: 0.5, swapInKBps: 0.25 },
});
const hot = hostView({
  id: "host-2",
  name: "esx-02",
  clusterName: "prod",
  metrics: { cpuReadyPercent: t.cpuReadyPercent + 5, memState: "soft" },
});
// vCenter returned only the usage counter: the others are unknown.
const partial = hostView({
  id: "host-3",
  name: "esx-03",
  metrics: {
    memState: undefined,
    cpuReadyPercent: undefined,
    memUsagePercent: undefined,
    balloonPercent: undefined,
    swapInKBps: undefined,
    cpuUsagePercent: 55,
  },
});
const noSample = hostView({ id: "host-4", name: "esx-04", clusterName: "prod", metrics: null });

describe("registerHostGauges", () => {
  const cases: Array<{ name: string; metric: string; want: Series }> = [
    {
      name: "given a cool, a hot, a partial and a sample-less host, CPU ready has series only where vCenter returned it",
      metric: "hvx_host_cpu_ready_percent",
      want: [
        { labels: { host: "esx-01", cluster: "prod" }, value: 1.5 },
        { labels: { host: "esx-02", cluster: "prod" }, value: t.cpuReadyPercent + 5 },
      ],
    },
    {
      name: "given a host without a cluster name, its cluster label is empty",
      metric: "hvx_host_cpu_usage_percent",
      want: [
        { labels: { host: "esx-01", cluster: "prod" }, value: 30 },
        { labels: { host: "esx-02", cluster: "prod" }, value: 30 },
        { labels: { host: "esx-03", cluster: "" }, value: 55 },
      ],
    },
    {
      name: "memory usage: unknown is no series, never 0",
      metric: "hvx_host_memory_usage_percent",
      want: [
        { labels: { host: "esx-01", cluster: "prod" }, value: 40 },
        { labels: { host: "esx-02", cluster: "prod" }, value: 40 },
      ],
    },
    {
      name: "balloon percent",
      metric: "hvx_host_balloon_percent",
      want: [
        { labels: { host: "esx-01", cluster: "prod" }, value: 0.5 },
        { labels: { host: "esx-02", cluster: "prod" }, value: 0 },
      ],
    },
    {
      name: "swap-in rate",
      metric: "hvx_host_swapin_kbps",
      want: [
        { labels: { host: "esx-01", cluster: "prod" }, value: 0.25 },
        { labels: { host: "esx-02", cluster: "prod" }, value: 0 },
      ],
    },
    {
      // the fixture samples 14 s before NOW_MS; a host without a sample has no age
      name: "metric age is now - sampledAt in seconds, absent without a sample",
      metric: "hvx_host_metric_age_seconds",
      want: [
        { labels: { host: "esx-01", cluster: "prod" }, value: 14 },
        { labels: { host: "esx-02", cluster: "prod" }, value: 14 },
        { labels: { host: "esx-03", cluster: "" }, value: 14 },
      ],
    },
    {
      name: "memory state: 1 for the state vCenter reported, no series when it did not",
      metric: "hvx_host_memory_state",
      want: [
        { labels: { host: "esx-01", cluster: "prod", state: "high" }, value: 1 },
        { labels: { host: "esx-02", cluster: "prod", state: "soft" }, value: 1 },
      ],
    },
    {
      name: "heat: one series per host, 1 for its current heat; no sample is unknown, not cool",
      metric: "hvx_host_heat",
      want: [
        { labels: { host: "esx-01", cluster: "prod", heat: "cool" }, value: 1 },
        { labels: { host: "esx-02", cluster: "prod", heat: "hot" }, value: 1 },
        { labels: { host: "esx-03", cluster: "", heat: "cool" }, value: 1 },
        { labels: { host: "esx-04", cluster: "prod", heat: "unknown" }, value: 1 },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const registry = setup(() => inventoryOf([cool, hot, partial, noSample], []));
      expect(await seriesOf(registry, c.metric)).to.have.deep.members(c.want);
    });
  }

  it("given a host that left the inventory, removes its series at the next scrape", async () => {
    let inventory = inventoryOf([cool, hot], []);
    const registry = setup(() => inventory);
    expect((await seriesOf(registry, "hvx_host_heat")).map((s) => s.labels.host)).to.have.members(["esx-01", "esx-02"]);
    inventory = inventoryOf([cool], []);
    for (const name of ["hvx_host_heat", "hvx_host_cpu_ready_percent", "hvx_host_metric_age_seconds"]) {
      expect(
        (await seriesOf(registry, name)).map((s) => s.labels.host),
        name,
      ).to.deep.equal(["esx-01"]);
    }
  });

  it("given a host that turns from cool to hot, keeps a single heat series for it", async () => {
    let inventory = inventoryOf([cool], []);
    const registry = setup(() => inventory);
    inventory = inventoryOf([{ ...hot, id: cool.id, name: cool.name }], []);
    expect(await seriesOf(registry, "hvx_host_heat")).to.deep.equal([
      { labels: { host: "esx-01", cluster: "prod", heat: "hot" }, value: 1 },
    ]);
  });

  it("given a host whose sample turns too old with the same inventory, its heat is unknown from that millisecond and its age keeps counting", async () => {
    const inventory = inventoryOf([{ ...cool, polledAtMs: NOW_MS + 3_600_000 }], []);
    const staleAt = cool.metrics!.sampledAtMs + (Math.floor(t.maxMetricAgeSeconds) + 0.5) * 1000;
    let now = staleAt - 1;
    const registry = setup(
      () => inventory,
      () => now,
    );
    expect((await seriesOf(registry, "hvx_host_heat"))[0]?.labels.heat).to.equal("cool");
    now = staleAt;
    expect((await seriesOf(registry, "hvx_host_heat"))[0]?.labels.heat).to.equal("unknown");
    expect((await seriesOf(registry, "hvx_host_metric_age_seconds"))[0]?.value).to.equal((staleAt - cool.metrics!.sampledAtMs) / 1000);
  });

  it("given two hosts with the same host and cluster names, writes one series per family (the last host's), as prom-client did", async () => {
    const twin = { ...hot, id: "host-9", name: cool.name, clusterName: cool.clusterName };
    const registry = setup(() => inventoryOf([cool, twin], []));
    expect(await seriesOf(registry, "hvx_host_cpu_ready_percent")).to.deep.equal([
      { labels: { host: "esx-01", cluster: "prod" }, value: twin.metrics!.cpuReadyPercent },
    ]);
  });
});
