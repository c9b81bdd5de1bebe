import { Counter, Gauge, type Registry } from "prom-client";

/** Metrics of predicted heat's load profiles (issue 9 §2). Labels: `vcenter` with several vCenters, `result`; never ids. */
export interface PredictionMetrics {
  setProfileHosts(hosts: number): void;
  /** Hosts whose warm start from vCenter's history ended `warmed` (samples recorded) or `empty` (none: level, interval, fault). */
  countWarmStart(result: "warmed" | "empty", hosts: number): void;
  countHistorySamples(samples: number): void;
}

const PROFILE_HOSTS = "hvx_prediction_profile_hosts";
const WARM_STARTS = "hvx_prediction_history_hosts_total";
const SAMPLES = "hvx_prediction_history_samples_total";

/** Registers the metrics once per registry (several pollers share them, told apart by `vcenter`). */
export function createPredictionMetrics(registry: Registry, vcenter?: string): PredictionMetrics {
  const extra = vcenter === undefined ? [] : ["vcenter"];
  const labels = vcenter === undefined ? {} : { vcenter };
  const hosts =
    (registry.getSingleMetric(PROFILE_HOSTS) as Gauge | undefined) ??
    new Gauge({
      name: PROFILE_HOSTS,
      help: "ESXi hosts whose time-of-day load profile holds at least one sample.",
      labelNames: extra,
      registers: [registry],
    });
  const warm =
    (registry.getSingleMetric(WARM_STARTS) as Counter | undefined) ??
    new Counter({
      name: WARM_STARTS,
      help: "Hosts warm-started from vCenter's historical statistics, by result: warmed (samples recorded) or empty (no history: statistics level, interval, or a fault).",
      labelNames: [...extra, "result"],
      registers: [registry],
    });
  const samples =
    (registry.getSingleMetric(SAMPLES) as Counter | undefined) ??
    new Counter({
      name: SAMPLES,
      help: "Historical host samples (300 s and 1800 s) recorded into load profiles.",
      labelNames: extra,
      registers: [registry],
    });
  hosts.set(labels, 0);
  for (const result of ["warmed", "empty"]) warm.inc({ ...labels, result }, 0);
  samples.inc(labels, 0);
  return {
    setProfileHosts: (n) => hosts.set(labels, n),
    countWarmStart: (result, n) => warm.inc({ ...labels, result }, n),
    countHistorySamples: (n) => samples.inc(labels, n),
  };
}
