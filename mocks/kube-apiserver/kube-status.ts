/** `metav1.Status` failure bodies, as the API server sends them (kind Status, apiVersion v1). */
export interface KubeStatus {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; causes?: Array<{ reason: string; message: string; field: string }> };
  code: number;
}

export function kubeStatus(code: number, reason: string, message: string, details?: KubeStatus["details"]): KubeStatus {
  const status: KubeStatus = { kind: "Status", apiVersion: "v1", metadata: {}, status: "Failure", message, reason, code };
  if (details) status.details = details;
  return status;
}

/** `<resource>.<group> "<name>"`, as the API server names an object in messages. */
export function qualifiedName(resource: string, group: string, name: string): string {
  return `${group === "" ? resource : `${resource}.${group}`} "${name}"`;
}

export function notFound(resource: string, group: string, name: string): KubeStatus {
  return kubeStatus(404, "NotFound", `${qualifiedName(resource, group, name)} not found`, { name, group, kind: resource });
}

export function alreadyExists(resource: string, group: string, name: string): KubeStatus {
  return kubeStatus(409, "AlreadyExists", `${qualifiedName(resource, group, name)} already exists`, { name, group, kind: resource });
}

export function conflict(resource: string, group: string, name: string): KubeStatus {
  return kubeStatus(
    409,
    "Conflict",
    `Operation cannot be fulfilled on ${qualifiedName(resource, group, name)}: the object has been modified; please apply your changes to the latest version and try again`,
    { name, group, kind: resource },
  );
}

export function expired(message: string): KubeStatus {
  return kubeStatus(410, "Expired", message);
}

export function serverError(code: number): KubeStatus {
  return code === 503
    ? kubeStatus(503, "ServiceUnavailable", "the server is currently unable to handle the request")
    : kubeStatus(code, "InternalError", "Internal error occurred: injected fault");
}

export function unauthorized(): KubeStatus {
  return kubeStatus(401, "Unauthorized", "Unauthorized");
}

/**
 * The RBAC denial, worded as k8s.io/apiserver's `forbiddenMessage` and `NewForbidden` word it:
 * `pods is forbidden: User "x" cannot list resource "pods" in API group "" at the cluster scope`.
 */
export function forbidden(
  user: string,
  req: {
    verb: string;
    apiGroup: string;
    resource: string;
    subresource: string;
    namespace: string;
    name: string;
    path: string;
    isResourceRequest: boolean;
  },
): KubeStatus {
  if (!req.isResourceRequest)
    return kubeStatus(403, "Forbidden", `forbidden: User ${JSON.stringify(user)} cannot ${req.verb} path ${JSON.stringify(req.path)}`);
  const resource = req.subresource === "" ? req.resource : `${req.resource}/${req.subresource}`;
  const scope = req.namespace === "" ? "at the cluster scope" : `in the namespace ${JSON.stringify(req.namespace)}`;
  const why = `User ${JSON.stringify(user)} cannot ${req.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(req.apiGroup)} ${scope}`;
  const qualified = req.apiGroup === "" ? req.resource : `${req.resource}.${req.apiGroup}`;
  const subject = req.name === "" ? qualified : `${qualified} ${JSON.stringify(req.name)}`;
  const details: NonNullable<KubeStatus["details"]> = { kind: req.resource };
  if (req.name !== "") details.name = req.name;
  if (req.apiGroup !== "") details.group = req.apiGroup;
  return kubeStatus(403, "Forbidden", `${subject} is forbidden: ${why}`, details);
}

/**
 * An update without `metadata.resourceVersion` of a type that does not allow unconditional
 * updates (Leases): the registry's `NewInvalid` on `metadata.resourceVersion` (value 0x0).
 */
export function resourceVersionRequired(resource: string, group: string, name: string): KubeStatus {
  const cause = {
    reason: "FieldValueInvalid",
    message: "Invalid value: 0x0: must be specified for an update",
    field: "metadata.resourceVersion",
  };
  const details: NonNullable<KubeStatus["details"]> = { name, kind: resource, causes: [cause] };
  if (group !== "") details.group = group;
  return kubeStatus(
    422,
    "Invalid",
    `${group === "" ? resource : `${resource}.${group}`} ${JSON.stringify(name)} is invalid: ${cause.field}: ${cause.message}`,
    details,
  );
}
