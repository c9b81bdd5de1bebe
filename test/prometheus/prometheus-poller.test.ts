import { expect } from "chai";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Registry } from "prom-client";
import { parseConfig } from "../../src/config/index.js";
import { silentLogger } from "../../src/observability/logger.js";
import type { PromSample } from "../../src/prometheus/parse-query-response.js";
import { seriesFor } from "../../src/prometheus/flavour-series.js";
import { buildPrometheusSourceParts } from "../../src/prometheus/build-prometheus-source-parts.js";
import { createPrometheusSourceMetrics } from "../../src/prometheus/prometheus-metrics.js";
import { PrometheusPoller } from "../../src/prometheus/prometheus-poller.js";
import { createVcenterInventoryReader } from "../../src/prometheus/vcenter-inventory-reader.js";
import { demoScenarioPath, loadScenario, startMockVcenter } from "../../mocks/vcenter/index.js";
import { freePort } from "../fixtures/net.js";

const T = 1_764_500_000_000;
const H = { host_name: "esx-01", cluster_name: "prod", dc_name: "dc1" };
/** Answers like Prometheus for the vmware_exporter series of one host; timestamp() queries give the sample time in seconds. */
function fakeQuerier(values: Record<string, number>, sampleS = T / 1000 - 5) {
  const state = { fail: undefined as Error | undefined, queries: 0 };
  return {
    state,
    query: async (q: string): Promise<PromSample[]> => {
      state.queries++;
      if (state.fail) throw state.fail;
      const name = q.replace(/^timestamp\(/, "").replace(/\{.*$/, "");
      const v = values[name];
      if (v === undefined) return [];
      const labels = name === "vmware_host_connection_state" ? { ...H, state: "connected" } : H;
      return [
        {
          labels: q.startsWith("timestamp(") ? labels : { __name__: name, ...labels },
          value: q.startsWith("timestamp(") ? sampleS : v,
          atMs: T,
        },
      ];
    },
  };
}
const HOST = {
  vmware_host_num_cpu: 32,
  vmware_host_cpu_max: 83_200,
  vmware_host_memory_max: 262_144,
  vmware_host_memory_usage: 131_072,
  vmware_host_maintenance_mode: 0,
  vmware_host_connection_state: 1,
  vmware_host_cpu_usage_average: 5000,
};

const config = (yaml: string) => parseConfig(`prometheus: { flavour: vmware_exporter, ${yaml} }`);
/** Without a fake querier: the parts src/main.ts builds (the HTTP client to `prometheus.url`). */
function poller(querier: ReturnType<typeof fakeQuerier> | undefined, yaml = "", clock = () => T, registry = new Registry()) {
  const c = config(yaml);
  const parts = querier
    ? { metrics: createPrometheusSourceMetrics(registry), querier }
    : buildPrometheusSourceParts({ prometheus: c.prometheus, vcenter: c.vcenter, log: silentLogger(), registry, clock });
  return new PrometheusPoller({
    prometheus: c.prometheus,
    maxMetricAgeSeconds: 120,
    log: silentLogger(),
    clock,
    random: () => 0.5,
    ...parts,
  });
}

describe("PrometheusPoller", () => {
  it("given a good cycle, serves the view, with each series' own sample time, and names its source", async () => {
    const q = fakeQuerier(HOST);
    const p = poller(q);
    await p.pollOnce();
    const h = p.latest().hosts.get("esx-01")!;
    expect(h.metrics?.cpuUsagePercent).to.equal(50);
    expect(h.metrics?.sampledAtMs).to.equal(T - 5000);
    expect(p.status()).to.deep.include({ source: "prometheus/vmware_exporter", consecutiveFailures: 0 });
  });

  it("given a missing series, that metric is unknown and the rest still decide", async () => {
    const { vmware_host_cpu_usage_average: _drop, ...rest } = HOST;
    const p = poller(fakeQuerier(rest));
    await p.pollOnce();
    const m = p.latest().hosts.get("esx-01")!.metrics!;
    expect(m).to.not.have.property("cpuUsagePercent");
    expect(m.memUsagePercent).to.equal(50);
  });

  it("given a query error after a good cycle, rejects, keeps the last good view, counts the failure and backs off", async () => {
    const registry = new Registry();
    const q = fakeQuerier(HOST);
    const p = poller(q, "queryIntervalSeconds: 20", () => T, registry);
    await p.pollOnce();
    const before = p.latest();
    q.state.fail = Object.assign(new Error("Prometheus query failed (422 execution: boom)"), { kind: "http" });
    await p.pollOnce().then(
      () => expect.fail("should reject"),
      () => undefined,
    );
    await p.pollOnce().catch(() => undefined);
    expect(p.latest()).to.equal(before);
    expect(p.status()).to.deep.include({ consecutiveFailures: 2, lastError: "Prometheus query failed (422 execution: boom)" });
    // backoffDelayMs(2, 20 s, ...) with jitter 0.5 is above the plain interval
    expect(p.nextDelayMs()).to.be.greaterThan(20_000);
    expect(await registry.getSingleMetricAsString("hvx_prometheus_cycles_total")).to.match(/outcome="failure",error_kind="http"} 2/);
  });

  it("given data older than 10x maxMetricAge, drops it", async () => {
    let now = T;
    const p = poller(fakeQuerier(HOST), "", () => now);
    await p.pollOnce();
    now = T + 10 * 120_000 + 1;
    expect(p.latest().hosts.size).to.equal(0);
  });

  it("given Prometheus unreachable (closed port), rejects with a network error naming no credentials", async () => {
    const port = await freePort();
    const p = poller(undefined, `url: "http://127.0.0.1:${port}", username: u, password: s3cret-pw`);
    const err = await p.pollOnce().then(
      () => undefined,
      (e: Error) => e,
    );
    p.stop();
    expect(err).to.be.instanceOf(Error);
    expect((err as { kind?: string }).kind).to.equal("network");
    expect(String(err?.message))
      .to.match(/unreachable/)
      .and.not.match(/s3cret/);
  });

  describe("over HTTP", () => {
    let server: Server;
    let seen: Array<{ url: string; auth: string | undefined }> = [];
    let answer: { status: number; body: string } = { status: 200, body: "" };
    before(async () => {
      server = createServer((req, res) => {
        seen.push({ url: req.url ?? "", auth: req.headers.authorization });
        res.writeHead(answer.status, { "Content-Type": "application/json" }).end(answer.body);
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    });
    after(() => new Promise<void>((r) => server.close(() => r())));
    const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    it("given an error body, fails the cycle with Prometheus's errorType and message", async () => {
      answer = { status: 400, body: JSON.stringify({ status: "error", errorType: "bad_data", error: 'invalid parameter "query"' }) };
      const p = poller(undefined, `url: "${url()}"`);
      const err = await p.pollOnce().then(
        () => undefined,
        (e: Error) => e,
      );
      p.stop();
      expect(err?.message).to.match(/400 bad_data: invalid parameter/);
      expect(p.status().consecutiveFailures).to.equal(1);
    });

    it("sends GET /api/v1/query with the selector and Basic credentials", async () => {
      seen = [];
      answer = { status: 200, body: JSON.stringify({ status: "success", data: { resultType: "vector", result: [] } }) };
      const p = poller(undefined, `url: "${url()}/", username: hvx, password: pw, selector: 'vcenter="vc01"'`);
      await p.pollOnce();
      p.stop();
      // (the previous test's queries may still arrive: they carry no credentials)
      const mine = seen.filter((r) => r.auth !== undefined);
      expect(mine.length).to.equal(seriesFor("vmware_exporter").length * 2);
      for (const r of mine) {
        const u = new URL(r.url, "http://x");
        expect(u.pathname).to.equal("/api/v1/query");
        expect(u.searchParams.get("query")).to.match(/\{.*vcenter="vc01"\}/);
        expect(r.auth).to.equal(`Basic ${Buffer.from("hvx:pw").toString("base64")}`);
      }
    });
  });

  it("telegraf: given vCenter's inventory failing while Prometheus answers, fails the cycle and keeps the last good view; never sends QueryPerf", async () => {
    const scenario = loadScenario(demoScenarioPath());
    const vcenter = await startMockVcenter({ scenario });
    try {
      const c = parseConfig(
        `prometheus: { flavour: telegraf }\nvcenter: { url: "${vcenter.url}", username: "${scenario.credentials.username}", password: "${scenario.credentials.password}" }`,
      );
      const registry = new Registry();
      const inventory = createVcenterInventoryReader(c.vcenter, undefined, silentLogger(), registry, Date.now);
      const parts = { metrics: createPrometheusSourceMetrics(registry), querier: fakeQuerier({}), inventory };
      const p = new PrometheusPoller({
        prometheus: c.prometheus,
        maxMetricAgeSeconds: 120,
        log: silentLogger(),
        random: () => 0.5,
        ...parts,
      });
      await p.pollOnce();
      const good = p.latest();
      expect(good.hosts.size).to.equal(scenario.hosts.length);
      vcenter.controls.setFaults({ fixedStatus: 503 });
      const err = await p.pollOnce().then(
        () => undefined,
        (e: Error) => e,
      );
      p.stop();
      expect((err as { kind?: string } | undefined)?.kind).to.equal("http");
      expect(p.latest()).to.equal(good);
      expect(vcenter.controls.stats().queryPerfCalls).to.equal(0);
    } finally {
      await vcenter.close();
    }
  });
});
