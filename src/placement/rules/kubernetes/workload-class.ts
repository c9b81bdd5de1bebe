import type { PodView, WorkloadClass } from "../../../model/cluster.js";
import type { HostView } from "../../../model/inventory.js";
import { inHostPool } from "../../host-pool.js";
import type { HostEntry } from "../../placement-index.js";
import { listed } from "../../pod-totals.js";
import type { HostPool, WorkloadClassPolicy } from "../../policy.js";
import { NO_REASONS, type Reason } from "../../reason.js";
import { DEFAULT_WORKLOAD_CLASSIFICATION } from "../../workload-class.js";
import { ExplainedAdjustment, type HostJudgement, type KubernetesRule } from "./kubernetes-rule.js";

const WORKLOAD_CLASS_RULE = "workload-class";

/** The configuration's defaults: the mixing penalty on at 3 points, no pools. */
export const DEFAULT_WORKLOAD_CLASSES: WorkloadClassPolicy = { ...DEFAULT_WORKLOAD_CLASSIFICATION, mixPenalty: 3, pools: {} };

/**
 * Online and batch pods on different ESXi hosts, so that a batch burst does not land on the host
 * under an online service. For a pod with a class (`PodView.workloadClass`): a host outside the
 * class's pool (`pools`) is rejected; else the host loses `mixPenalty` x the other class's share
 * of the expected CPU of the pods already on it (0..mixPenalty points, to 2 decimals; the pod
 * itself not counted). A pod without a class, or a host without the other class, gets no opinion.
 */
export function judgeWorkloadClass(entry: HostEntry, pod: PodView, policy: WorkloadClassPolicy): HostJudgement | undefined {
  const own = pod.workloadClass;
  if (own === undefined) return undefined;
  const pool = policy.pools[own];
  if (pool && !inHostPool(entry.host, pool)) return { reasons: outsidePool(entry.host, own, pool) };
  if (policy.mixPenalty <= 0) return undefined;
  const other = own === "online" ? "batch" : "online";
  const { totals } = entry;
  // A re-sent pod already bound here does not weigh against itself.
  const self = listed(totals, pod) && !pod.terminal ? pod.expectedDemand.cpuMilli : 0;
  const allMilli = totals.cpuDemandMilli - self;
  const otherMilli = totals.cpuDemandMilliByClass[other];
  if (allMilli <= 0 || otherMilli <= 0) return undefined;
  const share = Math.min(1, otherMilli / allMilli);
  const points = Math.round(policy.mixPenalty * share * 100) / 100;
  const explain = () =>
    `${own} pod: ${other} pods hold ${(share * 100).toFixed(0)} % of the expected CPU of this host's pods ` +
    `(${(otherMilli / 1000).toFixed(1)} of ${(allMilli / 1000).toFixed(1)} cores) x ${policy.mixPenalty} points`;
  return { reasons: NO_REASONS, adjustment: new ExplainedAdjustment(WORKLOAD_CLASS_RULE, points, explain) };
}

const poolReasons = new WeakMap<HostPool, WeakMap<HostView, readonly Reason[]>>();

/** The rejection of a host outside the class's pool: one list per pool and host snapshot, so requests share its rendered text. */
function outsidePool(host: HostView, workloadClass: WorkloadClass, pool: HostPool): readonly Reason[] {
  let byHost = poolReasons.get(pool);
  if (!byHost) poolReasons.set(pool, (byHost = new WeakMap()));
  let reasons = byHost.get(host);
  if (!reasons || reasons[0]?.code !== "workload_pool" || reasons[0].workloadClass !== workloadClass) {
    const { id, name, clusterName } = host;
    const reason: Reason = {
      code: "workload_pool",
      host: { id, name },
      workloadClass,
      pool,
      ...(clusterName !== undefined ? { clusterName } : {}),
    };
    byHost.set(host, (reasons = Object.freeze([reason])));
  }
  return reasons;
}

/** The pod's workload class: keeps online and batch pods on different ESXi hosts (`judgeWorkloadClass`). */
export const workloadClassRule: KubernetesRule = {
  name: WORKLOAD_CLASS_RULE,
  podKey: ({ pod }) => pod.workloadClass ?? "",
  onHost: (entry, { facts, policy }) => judgeWorkloadClass(entry, facts.pod, policy.workloadClasses ?? DEFAULT_WORKLOAD_CLASSES),
};
