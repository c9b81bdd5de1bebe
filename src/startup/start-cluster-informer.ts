import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import type { Registry } from "prom-client";
import { ClusterInformer, createClusterMetrics, makeTimedApiClient } from "../cluster/index.js";
import type { Config } from "../config/index.js";
import type { Logger } from "../observability/logger.js";
import type { InFlightLedger } from "../placement/in-flight-ledger.js";
import type { ResourceAmounts } from "../model/cluster.js";
import type { Stop } from "./stops.js";

/** The nodes, pods and namespaces informers; started, never awaited: until synced, hvx decides as without them. */
export function startClusterInformer(
  config: Readonly<Config>,
  kubeConfig: KubeConfig,
  defaults: ResourceAmounts,
  inFlight: InFlightLedger,
  registry: Registry,
  log: Logger,
  stops: Stop[],
): ClusterInformer {
  const { resyncSeconds, watchIdleSeconds, requestTimeoutSeconds } = config.kubernetes;
  const listApi = makeTimedApiClient(kubeConfig, CoreV1Api, requestTimeoutSeconds * 1000);
  const informer = new ClusterInformer({
    kubeConfig: kubeConfig,
    listApi,
    defaults,
    classes: config.workloadClasses,
    resyncSeconds,
    watchIdleSeconds,
    log,
    metrics: createClusterMetrics(registry),
    onPodSettled: (uid, how) => inFlight.settled(uid, how),
  });
  // Scheduling must not wait for the API server: until synced, hvx decides as without it.
  informer.start().then(
    () => log.info("Kubernetes informers synced (nodes, pods, namespaces)"),
    (err: Error) => log.error({ error: err.message }, "Kubernetes informers not synced yet; still retrying"),
  );
  stops.push(() => informer.stop());
  return informer;
}
