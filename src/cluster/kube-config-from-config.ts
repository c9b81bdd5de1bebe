import { KubeConfig } from "@kubernetes/client-node";
import type { Config } from "../config/schema.js";
import type { KubeEnv } from "../config/kube-env.js";

export class KubeConfigError extends Error {
  override name = "KubeConfigError";
}

/** How hvx reaches the API server, or why it does not. */
export type KubeAccess =
  | { readonly enabled: true; readonly kubeConfig: KubeConfig; readonly source: "file" | "KUBECONFIG" | "in-cluster" }
  | { readonly enabled: false; readonly why: string };

/**
 * Chooses the credentials: `kubernetes.kubeconfig` (explicit path), else `KUBECONFIG`, else the
 * in-cluster service account. `enabled: auto` turns the cluster side on when one of them exists;
 * `true` without any is an error; `false` never connects.
 */
export function kubeConfigFromConfig(
  config: Pick<Config["kubernetes"], "enabled" | "kubeconfig" | "resyncSeconds">,
  env: KubeEnv,
  load: (kc: KubeConfig, path: string) => void = loadFile,
): KubeAccess {
  if (config.enabled === false) return { enabled: false, why: "kubernetes.enabled is false" };
  const kc = new KubeConfig();
  try {
    if (config.kubeconfig !== undefined) {
      load(kc, config.kubeconfig);
      return checked(kc, "file");
    }
    if (env.kubeconfigPath !== undefined) {
      load(kc, env.kubeconfigPath);
      return checked(kc, "KUBECONFIG");
    }
    if (env.inCluster) {
      kc.loadFromCluster();
      return checked(kc, "in-cluster");
    }
  } catch (err) {
    if (err instanceof KubeConfigError) throw err;
    const where = config.kubeconfig ?? env.kubeconfigPath ?? "the in-cluster service account";
    throw new KubeConfigError(`cannot load kubeconfig from ${where}: ${firstLine(err)}`, { cause: err });
  }
  if (config.enabled === true) {
    throw new KubeConfigError("kubernetes.enabled is true but there is no kubernetes.kubeconfig, KUBECONFIG or in-cluster service account");
  }
  return { enabled: false, why: "no kubeconfig, KUBECONFIG or in-cluster service account (kubernetes.enabled: auto)" };
}

/**
 * hvx's own namespace: `POD_NAMESPACE`, else the current kubeconfig context's namespace, else `default`.
 * In-cluster, client-node puts the service account's namespace file in the context.
 */
export function resolveOwnNamespace(kubeConfig: KubeConfig | undefined, podNamespace: string | undefined): string {
  if (podNamespace) return podNamespace;
  const context = kubeConfig?.getContextObject(kubeConfig.getCurrentContext());
  return context?.namespace || "default";
}

function checked(kc: KubeConfig, source: "file" | "KUBECONFIG" | "in-cluster"): KubeAccess {
  if (!kc.getCurrentCluster()) throw new KubeConfigError(`the ${source} kubeconfig has no current cluster`);
  return { enabled: true, kubeConfig: kc, source };
}

function loadFile(kc: KubeConfig, path: string): void {
  kc.loadFromFile(path);
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split("\n")[0] ?? "";
}
