import type { ExemptPolicy } from "./policy.js";

/** The parts of a pod that decide whether host heat may keep it off a node. */
export interface PodMeta {
  readonly namespace: string;
  readonly name: string;
  readonly ownerKinds: readonly string[];
  /** Uid of the pod's controller reference (`controller: true`) when that is an `apps/v1` DaemonSet. */
  readonly daemonSetUid?: string;
  readonly priorityClassName?: string;
  readonly priority?: number;
  /** `spec.preemptionPolicy`: `PreemptLowerPriority` (the default) or `Never`. */
  readonly preemptionPolicy?: string;
  readonly annotations: Readonly<Record<string, string>>;
  /** `spec.activeDeadlineSeconds`: how long the pod may run at most (prediction horizon). */
  readonly activeDeadlineSeconds?: number;
}

export const EXEMPT_ANNOTATION = "hvx.io/exempt";
/** kube-scheduler's SystemCriticalPriority: system-cluster-critical and above. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/**
 * Why a pod bypasses hvx's rules, and which:
 * - `all`: every rule, host heat and the Kubernetes-layer caps (limits, stacked cap, spread).
 *   DaemonSet pods must run on their node whatever the host; system-critical pods and the
 *   exempt namespaces keep the cluster itself alive. Only the operator decides these.
 * - `host-heat`: the host-heat rules only (`hvx.io/exempt: "true"`, which any pod author can
 *   set): the Kubernetes-layer caps still apply, so the annotation cannot be used to stack
 *   limits or replicas onto one host.
 */
export interface Exemption {
  readonly by: string;
  readonly scope: "all" | "host-heat";
}

/**
 * `knownDaemonSets`: `namespace/uid` of the DaemonSets the cluster view knows (see
 * `ClusterView.daemonSets`); undefined without a cluster view. Any pod author can write an
 * ownerReference, so a DaemonSet pod is one whose controller reference is an apps/v1 DaemonSet,
 * and, with a cluster view, one that view knows by uid in the pod's namespace.
 */
export function exemptionOf(pod: PodMeta, policy: ExemptPolicy, knownDaemonSets?: ReadonlySet<string>): Exemption | undefined {
  const ds = pod.daemonSetUid;
  if (ds !== undefined && (knownDaemonSets === undefined || knownDaemonSets.has(`${pod.namespace}/${ds}`)))
    return { by: "DaemonSet pod", scope: "all" };
  if (pod.priorityClassName !== undefined && policy.priorityClassNames.includes(pod.priorityClassName)) {
    return { by: `priority class ${pod.priorityClassName}`, scope: "all" };
  }
  if (pod.priority !== undefined && pod.priority >= SYSTEM_CRITICAL_PRIORITY)
    return { by: `system-critical priority ${pod.priority}`, scope: "all" };
  if (policy.namespaces.includes(pod.namespace)) return { by: `namespace ${pod.namespace}`, scope: "all" };
  if (pod.annotations[EXEMPT_ANNOTATION] === "true" && namespaceMatches(policy.annotationNamespaces ?? ["*"], pod.namespace)) {
    return { by: `annotation ${EXEMPT_ANNOTATION}`, scope: "host-heat" };
  }
  return undefined;
}

/** Uid of the controller reference (`controller: true`) when it is an `apps/v1` DaemonSet with a uid; else undefined. */
export function daemonSetControllerUid(ownerReferences: readonly unknown[]): string | undefined {
  for (const ref of ownerReferences) {
    if (typeof ref !== "object" || ref === null) continue;
    const r = ref as { controller?: unknown; kind?: unknown; apiVersion?: unknown; uid?: unknown };
    if (r.controller !== true) continue;
    return r.kind === "DaemonSet" && r.apiVersion === "apps/v1" && typeof r.uid === "string" && r.uid !== "" ? r.uid : undefined;
  }
  return undefined;
}

/** Whether `namespace` matches one of `patterns` (`*` matches any run of characters, the rest literally). */
export function namespaceMatches(patterns: readonly string[], namespace: string): boolean {
  return patterns.some((p) => patternRegExp(p).test(namespace));
}

const compiled = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
    );
    if (compiled.size < 1000) compiled.set(pattern, re);
  }
  return re;
}
