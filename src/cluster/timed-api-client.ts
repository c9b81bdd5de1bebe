import { createConfiguration, ServerConfiguration, type ApiConstructor, type ApiType, type KubeConfig } from "@kubernetes/client-node";

/** An API call that got no complete answer within `kubernetes.requestTimeoutSeconds`. */
export class KubeRequestTimeoutError extends Error {
  override name = "KubeRequestTimeoutError";
}

/** `kubernetes.requestTimeoutSeconds` default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * `kubeConfig.makeApiClient(type)` whose every call gives up after `timeoutMs`: the request is
 * aborted (its socket freed) and the call rejects with `KubeRequestTimeoutError`. The deadline
 * covers the whole call, credential plugins included (an exec plugin that hangs too).
 * client-node sets no timeout of its own on typed calls, so a half-open connection would
 * otherwise hang a list or a Lease renew for as long as the kernel keeps the socket.
 */
export function makeTimedApiClient<T extends ApiType>(
  kubeConfig: KubeConfig,
  type: ApiConstructor<T>,
  timeoutMs: number = DEFAULT_REQUEST_TIMEOUT_MS,
): T {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error("the kubeconfig has no current cluster");
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kubeConfig },
    promiseMiddleware: [
      {
        pre: async (request) => {
          request.setSignal(AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))));
          return request;
        },
        post: async (response) => response,
      },
    ],
  });
  const api = new type(configuration);
  const seconds = timeoutMs / 1000;
  return new Proxy(api, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out instanceof Promise
          ? withDeadline(
              out,
              timeoutMs,
              `${String(prop)}: no answer from the Kubernetes API server within ${seconds} s (kubernetes.requestTimeoutSeconds)`,
            )
          : out;
      };
    },
  });
}

function withDeadline<R>(call: Promise<R>, timeoutMs: number, message: string): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KubeRequestTimeoutError(message)), timeoutMs);
    timer.unref();
  });
  const guarded = call.catch((err: unknown) => {
    // The signal set by the middleware fired: report it as the timeout it is.
    throw (err as { name?: unknown })?.name === "AbortError" ? new KubeRequestTimeoutError(message) : err;
  });
  return Promise.race([guarded, deadline]).finally(() => clearTimeout(timer));
}
