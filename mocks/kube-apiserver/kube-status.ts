/** `metav1.Status` failure bodies, as the API server sends them (kind Status, apiVersion v1). */
export interface KubeStatus {
  kind: "Status";
  apiVersion: "v1";
  metadata: Record<string, never>;
  status: "Failure";
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string };
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
