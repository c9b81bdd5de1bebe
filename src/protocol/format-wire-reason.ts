import type { Reason } from "../placement/reason.js";

/**
 * The text kube-scheduler gets for a rejected node (`FailedNodes`, `FailedAndUnresolvableNodes`),
 * e.g. `node(s) on hot ESXi hosts (cpu ready, balloon)`. kube-scheduler counts identical texts
 * into its FailedScheduling event and PodScheduled condition ("0/5000 nodes are available:
 * 412 node(s) on hot ESXi hosts (cpu ready), ...") and hands the event text to a printf as
 * its format; the API server refuses an event over 1024 characters. So the wire text names
 * only the kinds of reason and the rules' metric texts: no host, value, threshold or age
 * (those stay in `formatReason`, for explain, /debug and the logs), and no `%`.
 */
export function formatWireReasons(reasons: readonly Reason[]): string {
  const details = new Map<string, string[]>();
  for (const reason of reasons) {
    const [phrase, detail] = wirePhrase(reason);
    let list = details.get(phrase);
    if (list === undefined) details.set(phrase, (list = []));
    if (detail !== undefined && !list.includes(detail)) list.push(detail);
  }
  const parts = [...details].map(([phrase, list]) => (list.length === 0 ? phrase : `${phrase} (${list.join(", ")})`));
  return printfSafe(`node(s) ${parts.join(" and ")}`);
}

/** The wire phrases of host heat: what hvx's requeue looks for in a pending pod's PodScheduled message after a restart. */
export const HEAT_PHRASES = { host: "on hot ESXi hosts", predicted: "on ESXi hosts predicted hot", vm: "with a hot VM" } as const;

/** Whether kube-scheduler's message for a pending pod ("0/N nodes are available: ...") holds an hvx host-heat rejection. */
export function mentionsHostHeat(message: string): boolean {
  return Object.values(HEAT_PHRASES).some((phrase) => message.includes(`node(s) ${phrase}`));
}

/** What follows "node(s)" for one reason, and the detail (a rule's metric text, a resource) that goes in parentheses. */
function wirePhrase(reason: Reason): readonly [phrase: string, detail?: string] {
  switch (reason.code) {
    case "host_metric":
      return [reason.predicted ? HEAT_PHRASES.predicted : HEAT_PHRASES.host, reason.metric];
    case "vm_metric":
      return [HEAT_PHRASES.vm, reason.metric];
    case "host_maintenance":
      return ["on ESXi hosts in maintenance"];
    case "host_connection":
      return ["on ESXi hosts not connected to vCenter"];
    case "metrics_stale":
      return ["on ESXi hosts with stale metrics"];
    case "metrics_missing":
      return ["on ESXi hosts without metrics"];
    case "inventory_stale":
      return ["on ESXi hosts with a stale vCenter inventory"];
    case "node_unmapped":
      return ["without a matching vSphere VM"];
    case "vm_host_unknown":
      return ["with a VM on an unknown ESXi host"];
    case "limit_overcommit":
      return ["over the limit overcommit cap", reason.resource];
    case "stacked_overcommit":
      return ["on ESXi hosts over the stacked overcommit cap", "cpu"];
    case "host_spread":
      return ["on ESXi hosts over the pod's host spread skew"];
    case "workload_pool":
      return ["on ESXi hosts outside the pod's workload class pool", reason.workloadClass];
    case "correlated_burst":
      return ["on ESXi hosts over the correlated burst cap"];
    default:
      return assertNever(reason);
  }
}

/**
 * `text` with every `%` written as "pct": kube-scheduler passes extender text to Go's printf
 * as a format (`Eventf(..., msg)`, `fmt.Errorf(result.Error)`), where `%` starts a verb and
 * no argument follows (`14% >= 10%` turns into `14%!>(MISSING)= 10%!(NOVERB)`).
 */
export function printfSafe(text: string): string {
  return text.includes("%") ? text.replace(/%/g, "pct") : text;
}

function assertNever(x: never): never {
  throw new Error(`unhandled reason ${JSON.stringify(x)}`);
}
