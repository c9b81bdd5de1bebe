import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, parseAllDocuments, stringify } from "yaml";
import { EXTERNAL_METRICS, hvxExportedNames, metricNamesIn } from "./metric-names.js";
import { requirePromtool, runPromtool } from "./promtool.js";

const ROOT = process.cwd();
const OVERLAY = join(ROOT, "manifests/overlays/monitoring");

interface Panel {
  type: string;
  title: string;
  panels?: Panel[];
  targets?: Array<{ expr: string; refId: string }>;
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Array<{ name: string }> };
}

const DASHBOARDS: Array<{ file: string; title: string; mustUse: string[] }> = [
  {
    file: "dashboards/hvx.json",
    title: "hvx",
    // hosts by heat, top hosts by CPU ready, rejections by reason, extender latency and outcomes,
    // poll health and data age, admission ratios and removed requests, cluster cache age
    mustUse: [
      "hvx_host_heat",
      "hvx_host_cpu_ready_percent",
      "hvx_filter_node_verdicts_total",
      "hvx_extender_request_duration_seconds_bucket",
      "hvx_extender_requests_total",
      "hvx_vcenter_polls_total",
      "hvx_vcenter_data_age_seconds",
      "hvx_host_metric_age_seconds",
      "hvx_admission_reviews_total",
      "hvx_admission_effective_ratio",
      "hvx_admission_cpu_millicores_removed_total",
      "hvx_admission_memory_bytes_removed_total",
      "hvx_cluster_cache_age_seconds",
    ],
  },
  {
    file: "dashboards/hvx-two-layers.json",
    title: "hvx: two layers",
    // per ESXi host: throttling, OOM kills, evictions, memory pressure next to CPU ready, balloon, swap-in, memory state
    mustUse: [
      "hvx_node_info",
      "container_cpu_cfs_throttled_periods_total",
      "container_oom_events_total",
      "kube_pod_status_reason",
      "kube_node_status_condition",
      "hvx_host_cpu_ready_percent",
      "hvx_host_balloon_percent",
      "hvx_host_swapin_kbps",
      "hvx_host_memory_state",
    ],
  },
];

function allPanels(panels: readonly Panel[]): Panel[] {
  return panels.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);
}

/** Grafana's variables replaced by values PromQL accepts, so promtool can parse the expression. */
function withVariablesSubstituted(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)/g, "5m").replace(/\$\{?([a-z_]+)\}?/g, "x");
}

const load = (file: string) => JSON.parse(readFileSync(join(OVERLAY, file), "utf8")) as Dashboard;

describe("Grafana dashboards (manifests/overlays/monitoring)", () => {
  for (const d of DASHBOARDS) {
    describe(d.file, () => {
      const dash = load(d.file);
      const queries = allPanels(dash.panels).flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

      it(`is titled "${d.title}", has a uid, and every non-row panel has a query`, () => {
        expect(dash.title).to.equal(d.title);
        expect(dash.uid).to.match(/^[a-z0-9-]{1,40}$/);
        const empty = allPanels(dash.panels)
          .filter((p) => p.type !== "row" && (p.targets ?? []).length === 0)
          .map((p) => p.title);
        expect(empty).to.deep.equal([]);
      });

      it("names only metrics hvx registers in src, prom-client's defaults, or the documented external ones", async () => {
        const known = await hvxExportedNames(join(ROOT, "src"));
        const unknown = queries.flatMap((q) =>
          [...metricNamesIn(withVariablesSubstituted(q.expr))]
            .filter((n) => !known.has(n) && !(n in EXTERNAL_METRICS))
            .map((n) => `${q.panel}: ${n}`),
        );
        expect(unknown).to.deep.equal([]);
      });

      it("shows what the issue asks for", () => {
        const used = new Set(queries.flatMap((q) => [...metricNamesIn(withVariablesSubstituted(q.expr))]));
        expect(d.mustUse.filter((n) => !used.has(n))).to.deep.equal([]);
      });

      it("declares every variable its queries use", () => {
        const declared = new Set(["__rate_interval", "__interval", "__range", ...dash.templating.list.map((v) => v.name)]);
        const used = queries.flatMap((q) => [...q.expr.matchAll(/\$\{?([a-z_]+)\}?/g)].map((m) => m[1]!));
        expect(used.filter((v) => !declared.has(v))).to.deep.equal([]);
      });

      it("every panel query parses (promtool check rules, each wrapped in a recording rule)", function () {
        const promtool = requirePromtool(this);
        const dir = mkdtempSync(join(tmpdir(), "hvx-dash-"));
        try {
          const rules = queries.map((q, i) => ({ record: `hvx_dashboard:panel_${i}`, expr: withVariablesSubstituted(q.expr) }));
          writeFileSync(join(dir, "panels.yaml"), stringify({ groups: [{ name: d.file, rules }] }));
          const r = runPromtool(promtool, ["check", "rules", "panels.yaml"], dir);
          expect(r.status, r.output).to.equal(0);
          expect(r.output).to.include(`SUCCESS: ${rules.length} rules found`);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  }

  it("a broken panel query fails promtool check rules (the parse check can fail)", function () {
    const promtool = requirePromtool(this);
    const dir = mkdtempSync(join(tmpdir(), "hvx-dash-"));
    try {
      writeFileSync(
        join(dir, "panels.yaml"),
        stringify({ groups: [{ name: "g", rules: [{ record: "r", expr: "sum by (host (hvx_host_heat)" }] }] }),
      );
      expect(runPromtool(promtool, ["check", "rules", "panels.yaml"], dir).status).to.equal(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("docs/dashboards.md documents every external metric with its exporter, and every two-layers panel", () => {
    const doc = readFileSync(join(ROOT, "docs/dashboards.md"), "utf8");
    for (const [name, exporter] of Object.entries(EXTERNAL_METRICS)) {
      expect(doc, name).to.match(new RegExp(`\`${name}\`[^\\n]*${exporter}`));
    }
    for (const p of allPanels(load("dashboards/hvx-two-layers.json").panels).filter((x) => x.type !== "row"))
      expect(doc, p.title).to.include(p.title);
  });
});

/**
 * The two-layers panels evaluated by promtool on a small fleet: w1 and w2 on esx-01 (CPU ready
 * 15 %), w3 on esx-02 (2 %), w4 on esx-03 (balloon 3 %). w1 is throttled 30 %, w2 5 %, w3 50 %;
 * w4 reports MemoryPressure. Both layers hurt on CPU only on esx-01, on memory only on esx-03.
 */
const TWO_LAYER_INPUT = [
  ...[
    ["w1", "esx-01"],
    ["w2", "esx-01"],
    ["w3", "esx-02"],
    ["w4", "esx-03"],
  ].flatMap(([node, host]) => [
    // two hvx replicas export the same info
    { series: `hvx_node_info{pod="hvx-a",node="${node}",vm="${node}",host="${host}",cluster="prod",vcenter="vc"}`, values: "1x20" },
    { series: `hvx_node_info{pod="hvx-b",node="${node}",vm="${node}",host="${host}",cluster="prod",vcenter="vc"}`, values: "1x20" },
  ]),
  ...[
    ["esx-01", 15, 0],
    ["esx-02", 2, 0],
    ["esx-03", 1, 3],
  ].flatMap(([host, ready, balloon]) => [
    { series: `hvx_host_cpu_ready_percent{pod="hvx-a",host="${host}",cluster="prod"}`, values: `${ready}x20` },
    { series: `hvx_host_balloon_percent{pod="hvx-a",host="${host}",cluster="prod"}`, values: `${balloon}x20` },
    { series: `hvx_host_swapin_kbps{pod="hvx-a",host="${host}",cluster="prod"}`, values: "0x20" },
  ]),
  ...[
    ["w1", 30],
    ["w2", 5],
    ["w3", 50],
  ].flatMap(([node, throttled]) => [
    {
      series: `container_cpu_cfs_throttled_periods_total{node="${node}",namespace="app",pod="p-${node}",container="app"}`,
      values: `0+${throttled}x20`,
    },
    { series: `container_cpu_cfs_periods_total{node="${node}",namespace="app",pod="p-${node}",container="app"}`, values: "0+100x20" },
  ]),
  { series: 'kube_node_status_condition{node="w4",condition="MemoryPressure",status="true"}', values: "1x20" },
  { series: 'kube_node_status_condition{node="w3",condition="MemoryPressure",status="true"}', values: "0x20" },
];

const TWO_LAYER_EXPECTED: Record<string, Array<{ labels: string; value: number }>> = {
  "CPU: host CPU ready > 10 % and its nodes throttled > 25 %": [{ labels: '{host="esx-01"}', value: 15 }],
  "Memory: host reclaiming and its nodes under memory pressure": [{ labels: '{host="esx-03"}', value: 3 }],
  "Kubernetes: CPU throttling per node, by host": [
    { labels: '{host="esx-01",node="w1"}', value: 0.3 },
    { labels: '{host="esx-01",node="w2"}', value: 0.05 },
    { labels: '{host="esx-02",node="w3"}', value: 0.5 },
  ],
  "Kubernetes: nodes under memory pressure, by host": [
    { labels: '{host="esx-02"}', value: 0 },
    { labels: '{host="esx-03"}', value: 1 },
  ],
};

describe('dashboard "hvx: two layers" evaluated by promtool', () => {
  it("lists esx-01 (CPU) and esx-03 (memory) as hurting on both layers, and places each node's throttling on its host", function () {
    const promtool = requirePromtool(this);
    const panels = allPanels(load("dashboards/hvx-two-layers.json").panels);
    // All hosts and clusters selected, a 5-minute rate window.
    const exprOf = (title: string) =>
      panels
        .find((p) => p.title === title)!
        .targets![0]!.expr.replace(/\$__rate_interval/g, "5m")
        .replace(/\$\{?(host|cluster)\}?/g, ".*");
    const tests = Object.entries(TWO_LAYER_EXPECTED).map(([title, samples]) => ({
      expr: exprOf(title),
      eval_time: "15m",
      exp_samples: samples,
    }));
    const dir = mkdtempSync(join(tmpdir(), "hvx-dash-eval-"));
    try {
      writeFileSync(join(dir, "none.yaml"), stringify({ groups: [] }));
      writeFileSync(
        join(dir, "test.yaml"),
        stringify({
          rule_files: ["none.yaml"],
          evaluation_interval: "1m",
          tests: [{ interval: "1m", input_series: TWO_LAYER_INPUT, promql_expr_test: tests }],
        }),
      );
      const r = runPromtool(promtool, ["test", "rules", "test.yaml"], dir);
      expect(r.status, r.output).to.equal(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("monitoring overlay (kustomization)", () => {
  const kustomization = parse(readFileSync(join(OVERLAY, "kustomization.yaml"), "utf8")) as {
    resources: string[];
    generatorOptions: { labels: Record<string, string>; disableNameSuffixHash: boolean };
    configMapGenerator: Array<{ name: string; files: string[] }>;
  };

  it('lists only its own files, and puts every dashboard in a ConfigMap labelled grafana_dashboard: "1"', () => {
    for (const f of [...kustomization.resources, ...kustomization.configMapGenerator.flatMap((g) => g.files)]) {
      expect(f, f).to.not.match(/^\.\.|^\//);
      expect(existsSync(join(OVERLAY, f)), f).to.equal(true);
    }
    expect(kustomization.generatorOptions.labels.grafana_dashboard).to.equal("1");
    expect(kustomization.configMapGenerator.flatMap((g) => g.files)).to.have.members(DASHBOARDS.map((d) => d.file));
  });

  it("scrapes the Service's admin port (the one serving /metrics)", () => {
    const monitor = parse(readFileSync(join(OVERLAY, "servicemonitor.yaml"), "utf8")) as {
      spec: { selector: { matchLabels: Record<string, string> }; endpoints: Array<{ port: string; path: string }> };
    };
    const serviceFile = ["manifests/service.yaml", "manifests/base/service.yaml"].map((f) => join(ROOT, f)).find(existsSync)!;
    const service = parseAllDocuments(readFileSync(serviceFile, "utf8"))
      .map(
        (doc) =>
          doc.toJS() as {
            kind: string;
            metadata: { labels: Record<string, string> };
            spec: { ports: Array<{ name: string; port: number }> };
          },
      )
      .find((o) => o?.kind === "Service")!;
    for (const [k, v] of Object.entries(monitor.spec.selector.matchLabels)) expect(service.metadata.labels[k], k).to.equal(v);
    const admin = service.spec.ports.find((p) => p.name === monitor.spec.endpoints[0]!.port);
    expect(admin?.port).to.equal(9090);
    expect(monitor.spec.endpoints[0]!.path).to.equal("/metrics");
  });

  it("renders on its own with kubectl kustomize: ConfigMaps with the dashboard JSON, the ServiceMonitor and the PrometheusRule", function () {
    let out: string;
    try {
      out = execFileSync("kubectl", ["kustomize", OVERLAY], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        console.log("      kubectl is not installed; skipping the kustomize rendering");
        return this.skip();
      }
      throw err;
    }
    const objects = parseAllDocuments(out).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string; labels?: Record<string, string> }; data?: Record<string, string> },
    );
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).to.have.members([
      "ConfigMap/hvx-dashboard",
      "ConfigMap/hvx-dashboard-two-layers",
      "PrometheusRule/hvx",
      "ServiceMonitor/hvx",
    ]);
    for (const cm of objects.filter((o) => o.kind === "ConfigMap")) {
      expect(cm.metadata.labels?.grafana_dashboard).to.equal("1");
      const [file, json] = Object.entries(cm.data ?? {})[0]!;
      expect((JSON.parse(json) as Dashboard).uid, file).to.equal(load(`dashboards/${file}`).uid);
    }
  });
});
