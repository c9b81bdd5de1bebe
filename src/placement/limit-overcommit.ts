import type { NodeView, PodView } from "../model/cluster.js";
import { listed, podTotals } from "./pod-totals.js";
import type { LimitsPolicy } from "./policy.js";
import type { Reason } from "./reason.js";

/**
 * Kubernetes-layer bet on one node: sum(limits) / allocatable with the incoming pod
 * included, per resource. Above the maximum the node fails (preemption can help here).
 */
export function limitOvercommitReasons(node: NodeView, podsOnNode: readonly PodView[], incoming: PodView, policy: LimitsPolicy): Reason[] {
  const totals = podTotals(podsOnNode);
  const self = listed(totals, incoming);
  const cpu = totals.cpuLimitsMilli + (self ? 0 : incoming.limits.cpuMilli);
  const memory = totals.memoryLimitsBytes + (self ? 0 : incoming.limits.memoryBytes);
  return limitReasonsOf(node, cpu, memory, policy);
}

/** `limitOvercommitReasons` once the node's limits (incoming pod included) are summed. */
export function limitReasonsOf(node: NodeView, cpu: number, memory: number, policy: LimitsPolicy): Reason[] {
  const reasons: Reason[] = [];
  const check = (resource: "cpu" | "memory", limits: number, allocatable: number, max: number) => {
    if (over(limits, allocatable, max))
      reasons.push({ code: "limit_overcommit", resource, limits, allocatable, ratio: limits / allocatable, max });
  };
  check("cpu", cpu, node.allocatable.cpuMilli, policy.maxCpuOvercommit);
  check("memory", memory, node.allocatable.memoryBytes, policy.maxMemoryOvercommit);
  return reasons;
}

/** Whether `limitReasonsOf` has a reason for these sums, without building one. */
export function overcommitsLimits(node: NodeView, cpu: number, memory: number, policy: LimitsPolicy): boolean {
  return (
    over(cpu, node.allocatable.cpuMilli, policy.maxCpuOvercommit) || over(memory, node.allocatable.memoryBytes, policy.maxMemoryOvercommit)
  );
}

function over(limits: number, allocatable: number, max: number): boolean {
  return allocatable > 0 && limits / allocatable > max;
}
