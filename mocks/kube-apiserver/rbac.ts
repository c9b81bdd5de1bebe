import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";
import type { RequestInfo } from "./request-info.js";

/**
 * Bearer-token authentication and RBAC authorisation, as the API server does them for the
 * subset hvx's manifests use: Roles and ClusterRoles (apiGroups, resources, verbs,
 * resourceNames, `*`), bound by RoleBindings (that namespace only) and ClusterRoleBindings
 * (everywhere) to ServiceAccounts, Users and Groups. `system:masters` may do anything.
 */
export interface UserInfo {
  readonly name: string;
  readonly groups: readonly string[];
}

interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
  readonly resourceNames: readonly string[];
  /** ClusterRoles only: paths, exact or with a trailing `*` (a prefix). */
  readonly nonResourceURLs: readonly string[];
}

interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

interface Binding {
  /** undefined: a ClusterRoleBinding (cluster-wide). */
  readonly namespace: string | undefined;
  readonly roleKind: "Role" | "ClusterRole";
  readonly roleName: string;
  readonly subjects: readonly Subject[];
}

/** The service account the shipped manifests bind (`hvx` in `hvx-system`). */
export const HVX_SERVICE_ACCOUNT = { namespace: "hvx-system", name: "hvx" } as const;

export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ["system:serviceaccounts", `system:serviceaccounts:${namespace}`, "system:authenticated"],
  };
}

export const ADMIN_USER: UserInfo = { name: "kubernetes-admin", groups: ["system:masters", "system:authenticated"] };

/** manifests/base/rbac.yaml, the RBAC hvx ships (read from the source tree: the mocks are not in the production image). */
export function shippedRbacYaml(): string {
  const path = fileURLToPath(new URL("../../../manifests/base/rbac.yaml", import.meta.url));
  return readFileSync(path, "utf8");
}

export class RbacAuthorizer {
  private readonly roles = new Map<string, readonly PolicyRule[]>();
  private readonly bindings: Binding[] = [];

  /** Reads every Role, ClusterRole, RoleBinding and ClusterRoleBinding of a multi-document YAML text. */
  constructor(yamlText: string) {
    for (const doc of parseAllDocuments(yamlText)) {
      if (doc.errors.length > 0) throw new Error(`RBAC YAML: ${doc.errors[0]!.message}`);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const obj = doc.toJS() as any;
      if (!obj || typeof obj !== "object") continue;
      const ns: string | undefined = obj.metadata?.namespace;
      if (obj.kind === "Role" || obj.kind === "ClusterRole") {
        const rules: PolicyRule[] = (obj.rules ?? []).map((r: Partial<PolicyRule>) => ({
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          verbs: r.verbs ?? [],
          resourceNames: r.resourceNames ?? [],
          nonResourceURLs: r.nonResourceURLs ?? [],
        }));
        this.roles.set(roleKey(obj.kind, obj.kind === "Role" ? (ns ?? "default") : undefined, obj.metadata.name), rules);
      } else if (obj.kind === "RoleBinding" || obj.kind === "ClusterRoleBinding") {
        this.bindings.push({
          namespace: obj.kind === "RoleBinding" ? (ns ?? "default") : undefined,
          roleKind: obj.roleRef.kind,
          roleName: obj.roleRef.name,
          subjects: obj.subjects ?? [],
        });
      }
    }
  }

  /** A non-resource URL (`/debug/hosts`, get), as a SubjectAccessReview asks: ClusterRoles bound cluster-wide only. */
  allowsNonResource(user: UserInfo, path: string, verb: string): boolean {
    if (user.groups.includes("system:masters")) return true;
    return this.bindings.some(
      (b) =>
        b.namespace === undefined &&
        b.roleKind === "ClusterRole" &&
        b.subjects.some((s) => subjectMatches(s, user, undefined)) &&
        (this.roles.get(roleKey("ClusterRole", undefined, b.roleName)) ?? []).some((r) => urlAllows(r, path, verb)),
    );
  }

  allows(user: UserInfo, req: RequestInfo): boolean {
    if (user.groups.includes("system:masters")) return true;
    // The bootstrap roles system:discovery / system:public-info-viewer: any authenticated user may read these.
    if (!req.isResourceRequest) return req.verb === "get" && user.groups.includes("system:authenticated") && DISCOVERY_PATHS.test(req.path);
    for (const b of this.bindings) {
      if (b.namespace !== undefined && b.namespace !== req.namespace) continue;
      if (!b.subjects.some((s) => subjectMatches(s, user, b.namespace))) continue;
      const rules = this.roles.get(roleKey(b.roleKind, b.roleKind === "Role" ? b.namespace : undefined, b.roleName)) ?? [];
      if (rules.some((r) => ruleAllows(r, req))) return true;
    }
    return false;
  }
}

function urlAllows(r: PolicyRule, path: string, verb: string): boolean {
  return (
    has(r.verbs, verb) && r.nonResourceURLs.some((u) => u === "*" || u === path || (u.endsWith("*") && path.startsWith(u.slice(0, -1))))
  );
}

const DISCOVERY_PATHS = /^\/(api|apis|version|healthz|livez|readyz|openapi)(\/.*)?$/;

function roleKey(kind: string, namespace: string | undefined, name: string): string {
  return `${kind}/${namespace ?? ""}/${name}`;
}

function subjectMatches(s: Subject, user: UserInfo, bindingNamespace: string | undefined): boolean {
  switch (s.kind) {
    case "ServiceAccount":
      return user.name === `system:serviceaccount:${s.namespace ?? bindingNamespace ?? ""}:${s.name}`;
    case "User":
      return user.name === s.name;
    case "Group":
      return user.groups.includes(s.name);
    default:
      return false;
  }
}

function ruleAllows(r: PolicyRule, req: RequestInfo): boolean {
  const resource = req.subresource === "" ? req.resource : `${req.resource}/${req.subresource}`;
  if (!has(r.verbs, req.verb) || !has(r.apiGroups, req.apiGroup) || !has(r.resources, resource)) return false;
  return r.resourceNames.length === 0 || (req.name !== "" && r.resourceNames.includes(req.name));
}

function has(list: readonly string[], value: string): boolean {
  return list.includes("*") || list.includes(value);
}
