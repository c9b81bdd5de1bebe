import type { ResourceType } from "./resource-store.js";
import { EVENTS, LEASES, MUTATING_WEBHOOK_CONFIGURATIONS, NAMESPACES, NODES, PODS, SECRETS } from "./resource-types.js";

/** What a request path names: a collection (list/watch/create) or one object. */
export interface Route {
  readonly type: ResourceType;
  /** Namespace of a namespaced collection; undefined for all namespaces or cluster-scoped. */
  readonly namespace?: string;
  readonly name?: string;
}

const SEGMENT = "([a-z0-9]([-a-z0-9.]*[a-z0-9])?)";
const PATTERNS: ReadonlyArray<{ re: RegExp; type: ResourceType; ns?: number; name?: number }> = [
  { re: /^\/api\/v1\/nodes$/, type: NODES },
  { re: new RegExp(`^/api/v1/nodes/${SEGMENT}$`), type: NODES, name: 1 },
  { re: /^\/api\/v1\/namespaces$/, type: NAMESPACES },
  { re: new RegExp(`^/api/v1/namespaces/${SEGMENT}$`), type: NAMESPACES, name: 1 },
  { re: /^\/api\/v1\/pods$/, type: PODS },
  { re: new RegExp(`^/api/v1/namespaces/${SEGMENT}/pods$`), type: PODS, ns: 1 },
  { re: new RegExp(`^/api/v1/namespaces/${SEGMENT}/pods/${SEGMENT}$`), type: PODS, ns: 1, name: 3 },
  { re: /^\/apis\/coordination\.k8s\.io\/v1\/leases$/, type: LEASES },
  { re: new RegExp(`^/apis/coordination\\.k8s\\.io/v1/namespaces/${SEGMENT}/leases$`), type: LEASES, ns: 1 },
  { re: new RegExp(`^/apis/coordination\\.k8s\\.io/v1/namespaces/${SEGMENT}/leases/${SEGMENT}$`), type: LEASES, ns: 1, name: 3 },
  { re: new RegExp(`^/api/v1/namespaces/${SEGMENT}/secrets$`), type: SECRETS, ns: 1 },
  { re: new RegExp(`^/api/v1/namespaces/${SEGMENT}/secrets/${SEGMENT}$`), type: SECRETS, ns: 1, name: 3 },
  { re: /^\/api\/v1\/events$/, type: EVENTS },
  { re: new RegExp(`^/api/v1/namespaces/${SEGMENT}/events$`), type: EVENTS, ns: 1 },
  { re: new RegExp(`^/api/v1/namespaces/${SEGMENT}/events/${SEGMENT}$`), type: EVENTS, ns: 1, name: 3 },
  { re: /^\/apis\/admissionregistration\.k8s\.io\/v1\/mutatingwebhookconfigurations$/, type: MUTATING_WEBHOOK_CONFIGURATIONS },
  {
    re: new RegExp(`^/apis/admissionregistration\\.k8s\\.io/v1/mutatingwebhookconfigurations/${SEGMENT}$`),
    type: MUTATING_WEBHOOK_CONFIGURATIONS,
    name: 1,
  },
];

export function routeRequest(pathname: string): Route | undefined {
  for (const p of PATTERNS) {
    const m = p.re.exec(pathname);
    if (!m) continue;
    const route: { type: ResourceType; namespace?: string; name?: string } = { type: p.type };
    if (p.ns !== undefined) route.namespace = m[p.ns];
    if (p.name !== undefined) route.name = m[p.name];
    return route;
  }
  return undefined;
}
