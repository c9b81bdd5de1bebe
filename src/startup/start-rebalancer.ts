import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import type { Registry } from "prom-client";
import { type ClusterInformer, makeTimedApiClient, Rebalancer, REBALANCER_LEASE } from "../cluster/index.js";
import type { Config } from "../config/index.js";
import type { MetricsSource } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { createRebalanceMetrics } from "../observability/rebalance-metrics.js";
import { newLeaseElector } from "./start-lease-elector.js";
import type { Stop } from "./stops.js";

/** `rebalance.enabled`: its own Lease (hvx-rebalancer), so it may lead on another replica than the labeller. */
export function startRebalancer(
  config: Readonly<Config>,
  kc: KubeConfig,
  namespace: string,
  informer: ClusterInformer,
  poller: MetricsSource,
  registry: Registry,
  log: Logger,
  stops: Stop[],
  podName: string | undefined,
): void {
  const r = config.rebalance;
  const { requestTimeoutSeconds } = config.kubernetes;
  const { elector, identity } = newLeaseElector({
    kubeConfig: kc,
    namespace,
    name: REBALANCER_LEASE,
    leaseDurationSeconds: r.leaseDurationSeconds,
    requestTimeoutSeconds,
    podName,
    log,
  });
  const rebalancer = new Rebalancer({
    api: makeTimedApiClient(kc, CoreV1Api, requestTimeoutSeconds * 1000),
    elector,
    cluster: informer,
    inventory: poller,
    placement: config,
    rebalance: { ...r, hotHostBrakePercent: config.admission.hotHostBrakePercent },
    dryRun: r.dryRun,
    intervalMs: r.intervalSeconds * 1000,
    observeMs: config.vcenter.pollIntervalSeconds * 1000,
    hysteresisPercent: config.nodeLabels.hysteresisPercent,
    identity,
    metrics: createRebalanceMetrics(registry),
    log,
  });
  log.warn(
    {
      dryRun: r.dryRun,
      hotForMinutes: r.hotForMinutes,
      maxEvictionsPerCycle: r.maxEvictionsPerCycle,
      maxEvictionsPerHour: r.maxEvictionsPerHour,
      maxEvictionsPer100PodHours: r.maxEvictionsPer100PodHours,
    },
    r.dryRun ? "rebalance: on, dry run (Events and logs only)" : "rebalance: on: evicting pods off chronically hot ESXi hosts",
  );
  elector.start();
  rebalancer.start();
  stops.push(() => elector.stop());
  stops.push(() => rebalancer.stop());
}
