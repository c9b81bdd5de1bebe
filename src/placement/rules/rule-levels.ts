import { WARM_FRACTION, type ThresholdPolicy } from "../policy.js";
import type { MetricRule } from "./metric-rule.js";

type AnyRule = MetricRule<ThresholdPolicy>;

/** The rule's rejection threshold under `t`; undefined: an optional threshold left unset, the rule is off. */
export function rejectLevel(rule: AnyRule, t: ThresholdPolicy): number | undefined {
  return typeof rule.reject === "number" ? rule.reject : (t[rule.reject] as number | undefined);
}

/** The warn level: its own key, else `WARM_FRACTION` x a policy threshold; undefined for a fixed threshold or a rule that is off. */
export function warnLevel(rule: AnyRule, t: ThresholdPolicy): number | undefined {
  if (typeof rule.reject === "number") return undefined;
  const reject = t[rule.reject] as number | undefined;
  if (reject === undefined) return undefined;
  return rule.warn !== undefined ? (t[rule.warn] as number | undefined) : WARM_FRACTION * reject;
}

export function isOn(rule: AnyRule, t: ThresholdPolicy): boolean {
  return rejectLevel(rule, t) !== undefined;
}

/** What a value does under the rule: crosses the rejection threshold, the warn level, or neither (undefined, also for no value). */
export function judgeValue(
  rule: AnyRule,
  value: number | undefined,
  t: ThresholdPolicy,
): { readonly level: "reject" | "warn"; readonly threshold: number } | undefined {
  const reject = rejectLevel(rule, t);
  if (value === undefined || reject === undefined) return undefined;
  // Below the warn level nothing fires, even over a rejection threshold set under it (as the schema forbids).
  const warn = warnLevel(rule, t);
  if (warn !== undefined && !crosses(rule.op, value, warn)) return undefined;
  if (crosses(rule.op, value, reject)) return { level: "reject", threshold: reject };
  return warn !== undefined ? { level: "warn", threshold: warn } : undefined;
}

function crosses(op: AnyRule["op"], value: number, threshold: number): boolean {
  return op === ">=" ? value >= threshold : value > threshold;
}
