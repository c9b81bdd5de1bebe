import { Counter, Gauge, Histogram, type Registry } from "prom-client";

/** Metrics of the Prometheus source. Labels are fixed vocabularies: never URLs, queries or secrets. */
export interface PrometheusSourceMetrics {
  observeCycle(durationS: number, outcome: "success" | "failure", errorKind: string): void;
  setLastSuccess(atMs: number): void;
  countQuery(outcome: "ok" | "error_status" | "network_error"): void;
  /** Supplies the data age (seconds since the last successful cycle), read at scrape time; undefined = never. */
  bindDataAge(ageSeconds: () => number | undefined): void;
}

/** Registers `hvx_prometheus_*` metrics on `registry`. */
export function createPrometheusSourceMetrics(registry: Registry): PrometheusSourceMetrics {
  let dataAgeSeconds: () => number | undefined = () => undefined;
  const registers = [registry];
  const duration = new Histogram({
    name: "hvx_prometheus_cycle_duration_seconds",
    help: "Duration of one read of the Prometheus source (queries, and the vCenter inventory in the telegraf flavour).",
    labelNames: ["outcome"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers,
  });
  const cycles = new Counter({
    name: "hvx_prometheus_cycles_total",
    help: "Prometheus source cycles by outcome; failures by error kind (network, http, response, auth, config, other).",
    labelNames: ["outcome", "error_kind"],
    registers,
  });
  const lastSuccess = new Gauge({
    name: "hvx_prometheus_last_success_timestamp_seconds",
    help: "End of the last successful cycle, Unix time.",
    registers,
  });
  const queries = new Counter({
    name: "hvx_prometheus_queries_total",
    help: "Instant queries sent to Prometheus by outcome (ok, error_status, network_error).",
    labelNames: ["outcome"],
    registers,
  });
  new Gauge({
    name: "hvx_prometheus_data_age_seconds",
    help: "Seconds since the last successful cycle (absent before the first).",
    registers,
    collect() {
      const age = dataAgeSeconds();
      if (age === undefined) this.reset();
      else this.set(age);
    },
  });
  return {
    observeCycle: (durationS, outcome, errorKind) => {
      duration.observe({ outcome }, durationS);
      cycles.inc({ outcome, error_kind: outcome === "success" ? "" : errorKind });
    },
    setLastSuccess: (atMs) => lastSuccess.set(atMs / 1000),
    countQuery: (outcome) => queries.inc({ outcome }),
    bindDataAge: (fn) => {
      dataAgeSeconds = fn;
    },
  };
}
