import type { HostMetrics, VmMetrics } from "../../model/inventory.js";

/**
 * A metric rule, declared once (one file per rule in this folder) and read by every consumer:
 * judging (assess-host), explain, prediction, the burst guard's projection, the heat mark's
 * rule names and hysteresis, the safety valve, the rebalancer's hot spells, the host gauges
 * and the UI.
 */

/** Keys of `T` whose values are numbers (optional ones included). */
export type NumberKey<T> = { [K in keyof T]-?: Exclude<T[K], undefined> extends number ? K : never }[keyof T];
export type HostMetricField = Exclude<NumberKey<HostMetrics>, "sampledAtMs">;
export type VmMetricField = Exclude<NumberKey<VmMetrics>, "sampledAtMs">;
/** A key of the rule's own thresholds (an interface of numbers, declared in the rule's file). */
export type ThresholdKey<T> = keyof T & string;

interface RuleCommon<in T, M extends string> {
  /** The rule's name in the heat mark (`hot: cpu-ready, vm-balloon`): stable text, never rename. */
  readonly name: string;
  /** What a reason calls the metric (`cpu ready 12.4% >= 10%`): wire text, never rename. */
  readonly metric: M;
  readonly unit: "%" | "KB/s" | "MiB";
  /** `>=` a threshold from the policy (a key of it), or `>` a fixed number. */
  readonly op: ">=" | ">";
  /**
   * The rejection threshold: a policy key (an optional key left unset turns the rule off: it
   * then judges nothing, explains nothing and exports no gauge series) or a fixed number.
   */
  readonly reject: ThresholdKey<T> | number;
  /** The warn level's policy key; absent: `WARM_FRACTION` x reject (none for a fixed threshold). */
  readonly warn?: ThresholdKey<T>;
}

/** A rule on a number of the ESXi host's own sample (`HostMetrics`). */
export interface HostMetricRule<in T, M extends string = string> extends RuleCommon<T, M> {
  readonly scope: "host";
  readonly field: HostMetricField;
  /** The burst guard adds the pending pods' demand of this resource to the value (burst-guard.ts). */
  readonly projectedBy?: "cpu" | "memory";
  /** Evicting pods can end it: the rebalancer's hot spells count it (rebalance/hot-spells.ts). */
  readonly relievedByEviction: boolean;
  /** Raised to the host's predicted peak (predicted-heat.ts); the field must be a profile metric. */
  readonly predicted: boolean;
  /** Exported as this per-host gauge (`{host, cluster}` labels), while the rule is on. */
  readonly gauge?: { readonly name: string; readonly help: string };
  /** The row of the UI's host detail: label, the field shown (default: the rule's) and its digits. */
  readonly display: { readonly label: string; readonly field?: HostMetricField; readonly digits: number };
}

/** A rule on the node's own VM (`VmMetrics`), added to its host's verdict. */
export interface VmMetricRule<in T, M extends string = string> extends RuleCommon<T, M> {
  readonly scope: "vm";
  readonly field: VmMetricField;
}

export type MetricRule<T, M extends string = string> = HostMetricRule<T, M> | VmMetricRule<T, M>;
