import { AuthenticationV1Api, AuthorizationV1Api, type KubeConfig } from "@kubernetes/client-node";
import type { AccessReviewer, ReviewedUser } from "../server/delegated-access.js";
import { makeTimedApiClient } from "./timed-api-client.js";

/**
 * TokenReview and SubjectAccessReview through the API server (RBAC: `tokenreviews` and
 * `subjectaccessreviews` `create`, the built-in ClusterRole `system:auth-delegator`).
 */
export function accessReviewer(kubeConfig: KubeConfig, timeoutMs: number): AccessReviewer {
  const authn = makeTimedApiClient(kubeConfig, AuthenticationV1Api, timeoutMs);
  const authz = makeTimedApiClient(kubeConfig, AuthorizationV1Api, timeoutMs);
  return {
    authenticate: async (token) => {
      const review = await authn.createTokenReview({
        body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token } },
      });
      const user = review.status?.user;
      if (review.status?.authenticated !== true || user?.username === undefined) return undefined;
      return {
        username: user.username,
        groups: user.groups ?? [],
        ...(user.uid !== undefined ? { uid: user.uid } : {}),
        ...(user.extra !== undefined ? { extra: user.extra } : {}),
      };
    },
    authorize: async (user: ReviewedUser, path: string, verb: string) => {
      const review = await authz.createSubjectAccessReview({
        body: {
          apiVersion: "authorization.k8s.io/v1",
          kind: "SubjectAccessReview",
          spec: {
            user: user.username,
            groups: [...user.groups],
            ...(user.uid !== undefined ? { uid: user.uid } : {}),
            ...(user.extra !== undefined ? { extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) } : {}),
            nonResourceAttributes: { path, verb },
          },
        },
      });
      return review.status?.allowed === true;
    },
  };
}
