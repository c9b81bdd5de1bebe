import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { type ClusterInformer, makeTimedApiClient, NodeLabeller } from "../cluster/index.js";
import type { Config } from "../config/index.js";
import type { MetricsSource } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { desiredNodeMarks } from "../placement/node-marks.js";
import { newLeaseElector } from "./start-lease-elector.js";
import type { Stop } from "./stops.js";

export function startNodeLabeller(
  config: Readonly<Config>,
  kc: KubeConfig,
  namespace: string,
  informer: ClusterInformer,
  poller: MetricsSource,
  log: Logger,
  stops: Stop[],
  podName: string | undefined,
): void {
  const { leaseDurationSeconds, intervalSeconds, hysteresisPercent, minHeatChangeSeconds } = config.nodeLabels;
  const { requestTimeoutSeconds } = config.kubernetes;
  const { elector } = newLeaseElector({ kubeConfig: kc, namespace, leaseDurationSeconds, requestTimeoutSeconds, podName, log });
  const labeller = new NodeLabeller({
    api: makeTimedApiClient(kc, CoreV1Api, requestTimeoutSeconds * 1000),
    elector,
    cluster: informer,
    desired: () => desiredNodeMarks(informer.latest(), poller.latest(), config, Date.now(), hysteresisPercent),
    intervalMs: intervalSeconds * 1000,
    hysteresis: { hysteresisPercent, minHeatChangeSeconds },
    log,
  });
  elector.start();
  labeller.start();
  stops.push(() => elector.stop());
  stops.push(() => labeller.stop());
}
