import { existsSync } from "node:fs";

/** Where the Kubernetes API credentials may come from, read from the environment once. */
export interface KubeEnv {
  /** First path of `KUBECONFIG` (a colon-separated list), when set. */
  readonly kubeconfigPath?: string;
  /** Running in a pod: `KUBERNETES_SERVICE_HOST`/`_PORT` set and the service-account token mounted. */
  readonly inCluster: boolean;
  /** `POD_NAMESPACE` (downward API), when set. */
  readonly podNamespace?: string;
  /** `POD_NAME` (downward API), when set: part of the leader-election identity. */
  readonly podName?: string;
}

export const SERVICE_ACCOUNT_TOKEN_PATH = "/var/run/secrets/kubernetes.io/serviceaccount/token";

type Env = Readonly<Record<string, string | undefined>>;

export function readKubeEnv(env: Env = process.env, exists: (path: string) => boolean = existsSync): KubeEnv {
  const first = (env.KUBECONFIG ?? "").split(process.platform === "win32" ? ";" : ":").find((p) => p.trim() !== "");
  const inCluster =
    (env.KUBERNETES_SERVICE_HOST ?? "") !== "" && (env.KUBERNETES_SERVICE_PORT ?? "") !== "" && exists(SERVICE_ACCOUNT_TOKEN_PATH);
  const out: { kubeconfigPath?: string; inCluster: boolean; podNamespace?: string; podName?: string } = { inCluster };
  if (first !== undefined) out.kubeconfigPath = first.trim();
  const ns = env.POD_NAMESPACE?.trim();
  if (ns) out.podNamespace = ns;
  const pod = env.POD_NAME?.trim();
  if (pod) out.podName = pod;
  return out;
}
