import type { ServerResponse } from "node:http";
import { kubeStatus } from "./kube-status.js";
import type { RbacAuthorizer, UserInfo } from "./rbac.js";
import type { KubeObject } from "./resource-store.js";
import { send } from "./send-json.js";

/** The two review paths (create only), as the real API server serves them. */
export const TOKEN_REVIEW_PATH = "/apis/authentication.k8s.io/v1/tokenreviews";
export const SUBJECT_ACCESS_REVIEW_PATH = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

/**
 * `POST tokenreviews` (authentication.k8s.io/v1): the review echoed with `status.authenticated`
 * and `status.user` (username, uid, groups) for a token the fake knows; `authenticated: false`
 * with an `error` otherwise. A review without `spec.token` is 422, as the real validation.
 */
export function serveTokenReview(tokens: ReadonlyMap<string, UserInfo>, body: KubeObject, res: ServerResponse): void {
  const token: unknown = body.spec?.token;
  if (typeof token !== "string" || token === "")
    return send(res, 422, kubeStatus(422, "Invalid", 'TokenReview.authentication.k8s.io "" is invalid: spec.token: Required value'));
  const user = tokens.get(token);
  const status = user
    ? { authenticated: true, user: { username: user.name, uid: `uid-${user.name}`, groups: [...user.groups] }, audiences: [] }
    : { user: {}, error: "[invalid bearer token, token lookup failed]" };
  send(res, 201, {
    kind: "TokenReview",
    apiVersion: "authentication.k8s.io/v1",
    metadata: { creationTimestamp: null },
    spec: body.spec,
    status,
  });
}

/**
 * `POST subjectaccessreviews` (authorization.k8s.io/v1): `status.allowed` from the fake's RBAC
 * for `spec.user` / `spec.groups` and `spec.nonResourceAttributes` ({path, verb}). Resource
 * attributes are not served here (hvx asks about non-resource URLs only): 422.
 */
export function serveSubjectAccessReview(authorizer: RbacAuthorizer | undefined, body: KubeObject, res: ServerResponse): void {
  const spec = body.spec ?? {};
  const attrs = spec.nonResourceAttributes;
  if (typeof spec.user !== "string" || typeof attrs?.path !== "string" || typeof attrs?.verb !== "string")
    return send(
      res,
      422,
      kubeStatus(422, "Invalid", "SubjectAccessReview: spec.user and spec.nonResourceAttributes {path, verb} are required by this fake"),
    );
  const user: UserInfo = { name: spec.user, groups: Array.isArray(spec.groups) ? spec.groups : [] };
  const allowed = authorizer === undefined || authorizer.allowsNonResource(user, attrs.path, attrs.verb);
  send(res, 201, {
    kind: "SubjectAccessReview",
    apiVersion: "authorization.k8s.io/v1",
    metadata: { creationTimestamp: null },
    spec,
    status: allowed ? { allowed: true, reason: "RBAC: allowed by the fake" } : { allowed: false },
  });
}
