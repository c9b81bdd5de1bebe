import type { ThresholdPolicy } from "../policy.js";
import { balloon } from "./balloon.js";
import { cpuCostop } from "./cpu-costop.js";
import { cpuReady } from "./cpu-ready.js";
import { cpuUsage } from "./cpu-usage.js";
import { memoryState } from "./memory-state.js";
import { memoryUsage } from "./memory-usage.js";
import type { HostMetricRule, MetricRule, VmMetricRule } from "./metric-rule.js";
import { swapIn } from "./swap-in.js";
import { vmBalloon } from "./vm-balloon.js";
import { vmCpuReady } from "./vm-cpu-ready.js";

/**
 * The metric rules, in the order a verdict lists their reasons. Adding one: a file in this
 * folder, its entry here, its threshold in the config schema, its value in the metric
 * derivation (docs/architecture.md, "Adding a metric rule"). Every consumer reads these lists.
 */
const HOST_LIST = [cpuReady, cpuUsage, memoryUsage, balloon, swapIn, cpuCostop] as const;
/** The node's own VM's rules, added after its host's. */
const VM_LIST = [vmCpuReady, vmBalloon] as const;

/** The host rules and the memory state rule (judged after them): what a host reason may name. */
export type HostMetricName = (typeof HOST_LIST)[number]["metric"] | typeof memoryState.metric;
export type VmMetricName = (typeof VM_LIST)[number]["metric"];

export type HostRule = HostMetricRule<ThresholdPolicy, HostMetricName>;
export type VmRule = VmMetricRule<ThresholdPolicy, VmMetricName>;

export const HOST_METRIC_RULES: readonly HostRule[] = HOST_LIST;
export const VM_METRIC_RULES: readonly VmRule[] = VM_LIST;

type ThresholdsOf<R> = R extends MetricRule<infer T, string> ? T : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every rule's thresholds: `ThresholdPolicy` is built from them, so a rule's threshold is declared in its own file. */
export type RuleThresholds = UnionToIntersection<ThresholdsOf<(typeof HOST_LIST)[number] | (typeof VM_LIST)[number]>>;

/** Facts every host rule has, the memory state included: name, metric, eviction. */
const HOST_RULE_FACTS: ReadonlyArray<{ readonly name: string; readonly metric: HostMetricName; readonly relievedByEviction: boolean }> = [
  ...HOST_METRIC_RULES,
  memoryState,
];

/** The heat mark's name of the rule behind a host or VM reason's metric (`cpu-ready`, `vm-balloon`); undefined: no such rule. */
export function ruleNameOf(scope: "host" | "vm", metric: string): string | undefined {
  const rules: ReadonlyArray<{ readonly name: string; readonly metric: string }> = scope === "host" ? HOST_RULE_FACTS : VM_METRIC_RULES;
  return rules.find((r) => r.metric === metric)?.name;
}

/** Host metrics whose rule evicting pods can relieve (the rebalancer's hot spells). */
export const RELIEVED_BY_EVICTION: ReadonlySet<HostMetricName> = new Set(
  HOST_RULE_FACTS.filter((r) => r.relievedByEviction).map((r) => r.metric),
);

/** The policy keys the rules read: each rejection threshold once, with its warn level's own key if it has one (fixed thresholds: none). */
export const THRESHOLD_KEYS: ReadonlyArray<{ readonly reject: keyof ThresholdPolicy; readonly warn?: keyof ThresholdPolicy }> = [
  ...new Map(
    [...HOST_METRIC_RULES, ...VM_METRIC_RULES].flatMap((r) =>
      typeof r.reject === "string" ? [[r.reject, { reject: r.reject, ...(r.warn !== undefined ? { warn: r.warn } : {}) }] as const] : [],
    ),
  ).values(),
];

/** The unit a host reason's value carries ("" for the memory state). */
export function hostMetricUnit(metric: HostMetricName): string {
  return HOST_METRIC_RULES.find((r) => r.metric === metric)?.unit ?? "";
}

export { memoryState, judgeMemoryState } from "./memory-state.js";
export type { HostMetricField, HostMetricRule, MetricRule, VmMetricField, VmMetricRule } from "./metric-rule.js";
export { isOn, judgeValue, rejectLevel, warnLevel } from "./rule-levels.js";
