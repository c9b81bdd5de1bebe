import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import type { Registry } from "prom-client";
import { type ClusterInformer, makeTimedApiClient } from "../cluster/index.js";
import { PodRequeuer } from "../cluster/pod-requeuer.js";
import type { Config } from "../config/index.js";
import type { MetricsSource } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { createRequeueMetrics } from "../observability/requeue-metrics.js";
import { requeueDue } from "../placement/requeue-due.js";
import { mentionsHostHeat } from "../protocol/format-wire-reason.js";
import type { ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import type { Stop } from "./stops.js";

/** `requeue.enabled` (with the cluster view): pods rejected for host heat are touched once the host cools (issue 25 §2). */
export function startRequeuer(
  config: Readonly<Config>,
  kc: KubeConfig,
  informer: ClusterInformer,
  poller: MetricsSource,
  registry: Registry,
  log: Logger,
  stops: Stop[],
): PodRequeuer {
  const { maxPodsPerSecond, intervalSeconds, minIntervalSeconds, maxPods } = config.requeue;
  const bound = new WeakMap<object, Set<string>>();
  const requeuer = new PodRequeuer({
    api: makeTimedApiClient(kc, CoreV1Api, config.kubernetes.requestTimeoutSeconds * 1000),
    due: (held, nowMs) => requeueDue(held, poller.latest(), config.thresholds, nowMs),
    isBound: (pod) => {
      const byNode = informer.latest().podsByNode;
      let uids = bound.get(byNode);
      if (!uids) bound.set(byNode, (uids = new Set([...byNode.values()].flatMap((pods) => pods.map((p) => p.uid)))));
      return uids.has(pod.uid);
    },
    maxPodsPerSecond,
    intervalMs: intervalSeconds * 1000,
    minIntervalMs: minIntervalSeconds * 1000,
    maxPods,
    log,
    counted: createRequeueMetrics(registry),
    // After a restart: the pods an earlier process rejected for host heat, once both views are in.
    heldBeforeStart: () =>
      informer.latest().syncedAtMs === undefined || poller.latest().polledAtMs === undefined
        ? undefined
        : [...informer.pendingPods()].filter((p) => p.unschedulableMessage !== undefined && mentionsHostHeat(p.unschedulableMessage)),
  });
  requeuer.start();
  stops.push(() => requeuer.stop());
  return requeuer;
}

export function podRefOf(req: ParsedExtenderArgs): { uid: string; namespace: string; name: string } {
  return { uid: req.args.Pod.metadata?.uid ?? "", namespace: req.pod.namespace, name: req.pod.name };
}
