import type { PodView } from "../model/cluster.js";
import type { HostView } from "../model/inventory.js";
import { listed, podTotals } from "./pod-totals.js";
import type { LimitsPolicy } from "./policy.js";
import type { Reason } from "./reason.js";

/** Share of the stacked maximum from which the score starts to fall. */
const PENALTY_FROM = 0.75;
const MAX_PENALTY = 4;

export interface StackedCheck {
  /** CPU limits of every pod on the host's node VMs, incoming pod included, over physical cores. */
  readonly ratio: number;
  readonly reason?: Reason;
  /**
   * Score points taken off as the ratio approaches the maximum:
   * ceil(4 x (ratio / max - 0.75) / 0.25), clamped to 0..4 (0 below 75 % of the maximum).
   */
  readonly penalty: number;
}

/** Both layers' CPU bets stacked on one ESXi host: pod limits vs physical cores. */
export function checkStackedCpu(host: HostView, podsOnHost: readonly PodView[], incoming: PodView, policy: LimitsPolicy): StackedCheck {
  if (host.cpuCores <= 0) return { ratio: 0, penalty: 0 };
  const totals = podTotals(podsOnHost);
  return stackedCpuOf(host, totals.cpuLimitsMilli + (listed(totals, incoming) ? 0 : incoming.limits.cpuMilli), policy);
}

/** `checkStackedCpu` once the host's CPU limits (incoming pod included) are summed. */
export function stackedCpuOf(host: HostView, cpuLimitsMilli: number, policy: LimitsPolicy): StackedCheck {
  if (host.cpuCores <= 0) return { ratio: 0, penalty: 0 };
  const ratio = cpuLimitsMilli / 1000 / host.cpuCores;
  const max = policy.maxStackedCpuOvercommit;
  const share = ratio / max;
  const penalty = share <= PENALTY_FROM ? 0 : Math.min(MAX_PENALTY, Math.ceil((MAX_PENALTY * (share - PENALTY_FROM)) / (1 - PENALTY_FROM)));
  if (ratio <= max) return { ratio, penalty };
  return {
    ratio,
    penalty: MAX_PENALTY,
    reason: { code: "stacked_overcommit", host: { id: host.id, name: host.name }, cpuLimitsMilli, cores: host.cpuCores, ratio, max },
  };
}
