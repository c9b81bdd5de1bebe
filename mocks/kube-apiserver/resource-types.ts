import type { KubeObject, ResourceType } from "./resource-store.js";

/** The resource types the fake API server serves, with the field selectors the real one supports. */
export const NODES: ResourceType = {
  resource: "nodes",
  kind: "Node",
  apiVersion: "v1",
  namespaced: false,
  allowUnconditionalUpdate: true,
  extraFields: (o: KubeObject) => ({ "spec.unschedulable": String(o.spec?.unschedulable === true) }),
};

export const PODS: ResourceType = {
  resource: "pods",
  kind: "Pod",
  apiVersion: "v1",
  namespaced: true,
  allowUnconditionalUpdate: true,
  extraFields: (o: KubeObject) => ({
    "spec.nodeName": typeof o.spec?.nodeName === "string" ? o.spec.nodeName : "",
    "spec.schedulerName": typeof o.spec?.schedulerName === "string" ? o.spec.schedulerName : "",
    "status.phase": typeof o.status?.phase === "string" ? o.status.phase : "",
  }),
};

export const NAMESPACES: ResourceType = {
  resource: "namespaces",
  kind: "Namespace",
  apiVersion: "v1",
  namespaced: false,
  allowUnconditionalUpdate: true,
  extraFields: (o: KubeObject) => ({ "status.phase": typeof o.status?.phase === "string" ? o.status.phase : "" }),
};

export const LEASES: ResourceType = {
  resource: "leases",
  kind: "Lease",
  apiVersion: "coordination.k8s.io/v1",
  namespaced: true,
  // coordination/lease strategy: AllowUnconditionalUpdate() is false.
  allowUnconditionalUpdate: false,
  extraFields: () => ({}),
};

/** Secrets and webhook configurations: what manifests/admission/gen-certs.sh writes (test/manifests). */
export const SECRETS: ResourceType = {
  resource: "secrets",
  kind: "Secret",
  apiVersion: "v1",
  namespaced: true,
  allowUnconditionalUpdate: true,
  extraFields: () => ({}),
};

export const MUTATING_WEBHOOK_CONFIGURATIONS: ResourceType = {
  resource: "mutatingwebhookconfigurations",
  kind: "MutatingWebhookConfiguration",
  allowUnconditionalUpdate: true,
  apiVersion: "admissionregistration.k8s.io/v1",
  namespaced: false,
  extraFields: () => ({}),
};

/** core/v1 Events (the rebalancer records one per eviction decision), with the field selectors of pkg/registry/core/event. */
export const EVENTS: ResourceType = {
  resource: "events",
  kind: "Event",
  apiVersion: "v1",
  namespaced: true,
  allowUnconditionalUpdate: true,
  extraFields: (o: KubeObject) => ({
    reason: typeof o.reason === "string" ? o.reason : "",
    reportingComponent: typeof o.reportingComponent === "string" ? o.reportingComponent : "",
    type: typeof o.type === "string" ? o.type : "",
    source: typeof o.source?.component === "string" && o.source.component !== "" ? o.source.component : String(o.reportingComponent ?? ""),
    "involvedObject.kind": typeof o.involvedObject?.kind === "string" ? o.involvedObject.kind : "",
    "involvedObject.namespace": typeof o.involvedObject?.namespace === "string" ? o.involvedObject.namespace : "",
    "involvedObject.name": typeof o.involvedObject?.name === "string" ? o.involvedObject.name : "",
    "involvedObject.uid": typeof o.involvedObject?.uid === "string" ? o.involvedObject.uid : "",
  }),
};

/** policy/v1 PodDisruptionBudgets: stored for the eviction subresource (test controls only, no HTTP routes). */
export const POD_DISRUPTION_BUDGETS: ResourceType = {
  resource: "poddisruptionbudgets",
  kind: "PodDisruptionBudget",
  apiVersion: "policy/v1",
  namespaced: true,
  allowUnconditionalUpdate: true,
  extraFields: () => ({}),
};

export const RESOURCE_TYPES = [
  NODES,
  PODS,
  NAMESPACES,
  LEASES,
  SECRETS,
  MUTATING_WEBHOOK_CONFIGURATIONS,
  EVENTS,
  POD_DISRUPTION_BUDGETS,
] as const;

/** Field names accepted in `fieldSelector` for a type. */
export function supportedFields(type: ResourceType): ReadonlySet<string> {
  const sample = type.extraFields({ metadata: {} });
  return new Set(["metadata.name", ...(type.namespaced ? ["metadata.namespace"] : []), ...Object.keys(sample)]);
}

export function groupOf(type: ResourceType): string {
  const slash = type.apiVersion.indexOf("/");
  return slash < 0 ? "" : type.apiVersion.slice(0, slash);
}
