import type { KubeConfig } from "@kubernetes/client-node";
import { accessReviewer } from "../cluster/index.js";
import { ConfigError, type Config } from "../config/index.js";
import { DelegatedAccess } from "../server/delegated-access.js";

/** A decision (allowed or not) is reused this long, as kube-rbac-proxy caches its reviews. */
const DECISION_TTL_MS = 10_000;

/** `server.debugAccess: delegated`: reviews through the API server hvx already talks to. */
export function startDelegatedAccess(config: Readonly<Config>, kubeConfig: KubeConfig | undefined): DelegatedAccess {
  if (kubeConfig === undefined)
    throw new ConfigError([
      "server.debugAccess: delegated needs the Kubernetes API (kubernetes.enabled with a kubeconfig or in-cluster credentials); use loopback or open without it",
    ]);
  return new DelegatedAccess(accessReviewer(kubeConfig, config.kubernetes.requestTimeoutSeconds * 1000), {
    ttlMs: DECISION_TTL_MS,
    clock: Date.now,
  });
}
