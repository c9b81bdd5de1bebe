import type { PodView } from "../model/cluster.js";
import { EXEMPT_ANNOTATION, exemptionOf, type PodMeta } from "../placement/exemption.js";
import type { ExemptPolicy } from "../placement/policy.js";

/** kube-scheduler's built-in system-critical classes: never evicted, whatever `exempt.priorityClassNames` says. */
const SYSTEM_CRITICAL_CLASSES: ReadonlySet<string> = new Set(["system-node-critical", "system-cluster-critical"]);

/** Why the rebalancer leaves a pod alone; undefined: it may be evicted. */
export type NotEvictable = "unknown" | "no-controller" | "mirror-pod" | "exempt" | "system-critical" | "local-storage" | "terminal";

/**
 * Whether the rebalancer may evict `pod`: it has a controller that will recreate it (not a
 * mirror pod, whose "controller" is its Node), it is not exempt from hvx in any way (DaemonSet,
 * system-critical priority or class, `exempt.namespaces`, `exempt.priorityClassNames`,
 * `hvx.io/exempt`), and it has no emptyDir or hostPath volume unless `evictLocalStorage`.
 */
export function whyNotEvictable(pod: PodView, exempt: ExemptPolicy, evictLocalStorage: boolean): NotEvictable | undefined {
  const f = pod.eviction;
  if (!f) return "unknown";
  if (pod.terminal) return "terminal";
  if (f.priorityClassName !== undefined && SYSTEM_CRITICAL_CLASSES.has(f.priorityClassName)) return "system-critical";
  // The annotation asks hvx to leave the pod alone: honoured here in every namespace (it only
  // ever spares a pod), while `exempt.annotationNamespaces` bounds who may escape the heat rules with it.
  if (f.exemptAnnotation === "true" || exemptionOf(podMetaOf(pod), exempt)) return "exempt";
  if (f.controllerKind === undefined) return "no-controller";
  if (f.controllerKind === "Node") return "mirror-pod";
  if (f.localStorage && !evictLocalStorage) return "local-storage";
  return undefined;
}

/** The pod as the placement code's exemption and filter see it. */
export function podMetaOf(pod: PodView): PodMeta {
  const f = pod.eviction;
  const meta: { -readonly [K in keyof PodMeta]: PodMeta[K] } = {
    namespace: pod.namespace,
    name: pod.name,
    ownerKinds: f?.ownerKinds ?? [],
    annotations: f?.exemptAnnotation !== undefined ? { [EXEMPT_ANNOTATION]: f.exemptAnnotation } : {},
  };
  if (f?.daemonSetUid !== undefined) meta.daemonSetUid = f.daemonSetUid;
  if (f?.priorityClassName !== undefined) meta.priorityClassName = f.priorityClassName;
  if (f?.priority !== undefined) meta.priority = f.priority;
  return meta;
}
