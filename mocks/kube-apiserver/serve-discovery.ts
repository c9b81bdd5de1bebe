import { groupOf, RESOURCE_TYPES } from "./resource-types.js";

/** Verbs every served type supports (README's table). */
const VERBS = ["create", "delete", "get", "list", "patch", "update", "watch"];

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf("/") + 1);
}

/** APIResourceList of one group version, as `GET /api/v1` or `GET /apis/<group>/<version>` answers it. */
function resourceList(groupVersion: string): object | undefined {
  const types = RESOURCE_TYPES.filter((t) => t.apiVersion === groupVersion);
  if (types.length === 0) return undefined;
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion,
    resources: types.map((t) => ({
      name: t.resource,
      singularName: t.kind.toLowerCase(),
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: VERBS,
    })),
  };
}

/**
 * Legacy (unaggregated) discovery, enough for kubectl's REST mapping: `/api` (APIVersions), `/apis`
 * (APIGroupList) and the resource list of every served group version. kubectl asks for the aggregated
 * form first and falls back to this one when the answer is plain `application/json`, as with API
 * servers before 1.26. Undefined for any other path.
 */
export function discoveryDocument(pathname: string): object | undefined {
  if (pathname === "/api") return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [] };
  if (pathname === "/apis") {
    const groupVersions = [...new Set(RESOURCE_TYPES.filter((t) => groupOf(t) !== "").map((t) => t.apiVersion))];
    return {
      kind: "APIGroupList",
      apiVersion: "v1",
      groups: groupVersions.map((gv) => {
        const version = { groupVersion: gv, version: versionOf(gv) };
        return { name: gv.slice(0, gv.indexOf("/")), versions: [version], preferredVersion: version };
      }),
    };
  }
  if (pathname === "/api/v1") return resourceList("v1");
  const m = /^\/apis\/([^/]+\/[^/]+)$/.exec(pathname);
  return m === null ? undefined : resourceList(m[1]!);
}
