import { METRICS_OF_RAW_HOST, METRICS_OF_RAW_VM } from "../model/derive-metrics.js";
import { PROFILE_METRICS } from "../model/host-forecast.js";
import type { ThresholdPolicy } from "../placement/policy.js";
import { HOST_METRIC_RULES, isOn, VM_METRIC_RULES } from "../placement/rules/index.js";
import {
  HOST_COUNTER_NAMES,
  HOST_COUNTERS,
  VM_COUNTER_NAMES,
  VM_COUNTERS,
  type HostCounterName,
  type VmCounterName,
} from "./counter-catalogue.js";

/** The counters a poll (real-time and history) asks vCenter for, per entity type. */
export interface WantedCounters {
  readonly host: readonly HostCounterName[];
  readonly vm: readonly VmCounterName[];
}

/**
 * The counters whose metrics something reads under `thresholds`. A metric rule that is off (its
 * optional threshold unset) judges, explains, projects and exports nothing and the UI hides its
 * row, so a counter whose every metric belongs only to rules that are off is not asked for (the
 * co-stop counter by default). Every other counter is: its metrics are read by a rule that is
 * on, by prediction (`PROFILE_METRICS`, recorded whatever the rules), or, declared by no rule
 * (swapped MiB, the memory state), by the scores, /debug and the simulator. A new reader of a
 * metric that only a rule that can be off declares must be added to `read` here.
 */
export function wantedCounters(thresholds: ThresholdPolicy): WantedCounters {
  const rules = [...HOST_METRIC_RULES, ...VM_METRIC_RULES];
  const read = new Set<string>([...PROFILE_METRICS, ...rules.filter((r) => isOn(r, thresholds)).map((r) => r.field)]);
  const unread = new Set<string>(rules.map((r) => r.field).filter((field) => !read.has(field)));
  const wanted = (metrics: readonly string[]) => metrics.some((m) => !unread.has(m));
  return {
    host: HOST_COUNTER_NAMES.filter((name) => wanted(METRICS_OF_RAW_HOST[HOST_COUNTERS[name]])),
    vm: VM_COUNTER_NAMES.filter((name) => wanted(METRICS_OF_RAW_VM[VM_COUNTERS[name]])),
  };
}
