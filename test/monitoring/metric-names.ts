import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { collectDefaultMetrics, Registry } from "prom-client";

/**
 * Metrics of other exporters that the alerts and the two-layers dashboard use, by exporter.
 * docs/dashboards.md documents each (a test keeps the two in sync).
 */
export const EXTERNAL_METRICS: Readonly<Record<string, "cAdvisor" | "kube-state-metrics" | "kube-scheduler">> = {
  container_cpu_cfs_throttled_periods_total: "cAdvisor",
  container_cpu_cfs_periods_total: "cAdvisor",
  container_oom_events_total: "cAdvisor",
  kube_node_status_condition: "kube-state-metrics",
  kube_pod_container_status_last_terminated_reason: "kube-state-metrics",
  kube_pod_info: "kube-state-metrics",
  kube_pod_status_reason: "kube-state-metrics",
  scheduler_schedule_attempts_total: "kube-scheduler",
};

const HISTOGRAM_SUFFIXES = ["_bucket", "_sum", "_count"];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/**
 * Every series name hvx can expose: the `hvx_*` names registered in src (prom-client
 * constructors with a literal `name:`; a histogram adds `_bucket`, `_sum`, `_count`) and the
 * prom-client default metrics main.ts collects (`process_*`, `nodejs_*`).
 */
export async function hvxExportedNames(srcDir: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (const file of tsFiles(srcDir)) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/new (Counter|Gauge|Histogram|Summary)(?:<[^>]*>)?\(\{\s*name:\s*"(hvx_[a-z0-9_]+)"/g)) {
      names.add(m[2]!);
      if (m[1] === "Histogram") for (const s of HISTOGRAM_SUFFIXES) names.add(m[2]! + s);
    }
    // createClusterMetrics-style object literals: `events: new Counter({ name: "hvx_...", ...`
    for (const m of text.matchAll(/name:\s*"(hvx_[a-z0-9_]+)"/g)) names.add(m[1]!);
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const m of await registry.getMetricsAsJSON()) {
    names.add(m.name);
    if (String(m.type) === "histogram") for (const s of HISTOGRAM_SUFFIXES) names.add(m.name + s);
  }
  return names;
}

const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "and",
  "or",
  "unless",
  "bool",
  "offset",
  "inf",
  "nan",
]);

/**
 * Metric names a PromQL expression selects: identifiers left once strings, label matchers,
 * ranges, grouping clauses and function calls are taken out. Grafana variables must be
 * substituted first.
 */
export function metricNamesIn(expr: string): Set<string> {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ")
    .replace(/\b[a-zA-Z_][a-zA-Z0-9_]*\s*\(/g, "(");
  const names = new Set<string>();
  for (const m of stripped.matchAll(/(?<![0-9.])\b[a-zA-Z_:][a-zA-Z0-9_:]*\b/g)) {
    if (!KEYWORDS.has(m[0].toLowerCase())) names.add(m[0]);
  }
  return names;
}
