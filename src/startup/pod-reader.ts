import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";

/** Reads one pod for `GET /debug/explain?pod=`; undefined when the API server answers 404. */
export function podReader(kc: KubeConfig): (namespace: string, name: string) => Promise<unknown> {
  const api = kc.makeApiClient(CoreV1Api);
  return async (namespace, name) => {
    try {
      // Plain JSON, as the extender receives pods (the client turns timestamps into Date objects).
      return JSON.parse(JSON.stringify(await api.readNamespacedPod({ namespace, name }))) as unknown;
    } catch (err) {
      if ((err as { code?: unknown }).code === 404) return undefined;
      throw err;
    }
  };
}
