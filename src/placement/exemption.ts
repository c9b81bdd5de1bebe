import type { ExemptPolicy } from "./policy.js";

/** The parts of a pod that decide whether host heat may keep it off a node. */
export interface PodMeta {
  readonly namespace: string;
  readonly name: string;
  readonly ownerKinds: readonly string[];
  readonly priorityClassName?: string;
  readonly priority?: number;
  readonly annotations: Readonly<Record<string, string>>;
}

export const EXEMPT_ANNOTATION = "hvx.io/exempt";
/** kube-scheduler's SystemCriticalPriority: system-cluster-critical and above. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/**
 * Why a pod bypasses every host-based rule, or undefined. DaemonSet pods must run on
 * their node whatever the host; system-critical pods keep the cluster itself alive.
 */
export function exemptionOf(pod: PodMeta, policy: ExemptPolicy): string | undefined {
  if (pod.ownerKinds.includes("DaemonSet")) return "DaemonSet pod";
  if (pod.priorityClassName !== undefined && policy.priorityClassNames.includes(pod.priorityClassName)) {
    return `priority class ${pod.priorityClassName}`;
  }
  if (pod.priority !== undefined && pod.priority >= SYSTEM_CRITICAL_PRIORITY) return `system-critical priority ${pod.priority}`;
  if (policy.namespaces.includes(pod.namespace)) return `namespace ${pod.namespace}`;
  if (pod.annotations[EXEMPT_ANNOTATION] === "true") return `annotation ${EXEMPT_ANNOTATION}`;
  return undefined;
}
