/**
 * What the API server's authoriser sees of a request (k8s.io/apiserver `RequestInfoFactory`,
 * reduced to resource requests): verb, API group, resource, namespace and name, parsed from
 * the path alone, so a path the fake does not serve is still authorised (403 before 404).
 */
export interface RequestInfo {
  readonly isResourceRequest: boolean;
  /** get, list, watch, create, update, patch, delete, deletecollection (or the lower-case HTTP verb for other paths). */
  readonly verb: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly path: string;
}

const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);

export function requestInfo(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const parts = path.split("/").filter((p) => p !== "");
  const plain: RequestInfo = {
    isResourceRequest: false,
    verb: method.toLowerCase(),
    apiGroup: "",
    apiVersion: "",
    resource: "",
    subresource: "",
    namespace: "",
    name: "",
    path,
  };
  let rest: string[];
  let apiGroup = "";
  let apiVersion: string;
  if (parts[0] === "api" && parts.length >= 3) {
    apiVersion = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === "apis" && parts.length >= 4) {
    apiGroup = parts[1]!;
    apiVersion = parts[2]!;
    rest = parts.slice(3);
  } else {
    return plain;
  }
  let namespace = "";
  if (rest[0] === "namespaces" && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) rest = rest.slice(2);
  }
  const [resource = "", name = "", subresource = ""] = rest;
  const watch = url.searchParams.get("watch");
  const isWatch = watch === "true" || watch === "1";
  let verb: string;
  switch (method.toUpperCase()) {
    case "GET":
    case "HEAD":
      verb = name === "" ? (isWatch ? "watch" : "list") : isWatch ? "watch" : "get";
      break;
    case "POST":
      verb = "create";
      break;
    case "PUT":
      verb = "update";
      break;
    case "PATCH":
      verb = "patch";
      break;
    case "DELETE":
      verb = name === "" ? "deletecollection" : "delete";
      break;
    default:
      verb = method.toLowerCase();
  }
  return { isResourceRequest: true, verb, apiGroup, apiVersion, resource, subresource, namespace, name, path };
}
