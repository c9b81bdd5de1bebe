import type { KubeConfig } from "@kubernetes/client-node";
import type { Registry } from "prom-client";
import { kubeConfigFromConfig, resolveOwnNamespace, type ClusterInformer } from "../cluster/index.js";
import type { Config } from "../config/index.js";
import type { KubeEnv } from "../config/kube-env.js";
import type { ResourceAmounts } from "../model/cluster.js";
import { createInFlightMetrics } from "../observability/in-flight-metrics.js";
import type { Logger } from "../observability/logger.js";
import { InFlightLedger } from "../placement/in-flight-ledger.js";
import { cpuMilli, memoryBytes } from "../quantity/index.js";
import { startClusterInformer } from "./start-cluster-informer.js";
import { startNodeLabeller } from "./start-node-labeller.js";
import { startRebalancer } from "./start-rebalancer.js";
import type { Stop } from "./stops.js";
import type { VsphereSide } from "./start-vsphere-side.js";

export interface ClusterSide {
  /** How hvx reaches the API server; undefined in extender-only mode (no Kubernetes API). */
  readonly kubeConfig: KubeConfig | undefined;
  /** hvx's own namespace (the Lease, the admission webhook's exemption). */
  readonly ownNamespace: string;
  /** The burst guard's demand of a pod that declares none. */
  readonly defaults: ResourceAmounts;
  /** The nodes, pods and namespaces informers; undefined without the Kubernetes API. */
  readonly informer: ClusterInformer | undefined;
  /** Pods hvx answered for, counted on their best node until the informer shows them bound. */
  readonly inFlight: InFlightLedger;
}

/**
 * The Kubernetes side: the informers, the node labeller and the rebalancer when the API server
 * can be reached (the demo's fake one included); otherwise extender-only mode, where nodes are
 * mapped by what kube-scheduler sends.
 */
export function startClusterSide(
  config: Readonly<Config>,
  kubeEnv: KubeEnv,
  vsphere: VsphereSide,
  registry: Registry,
  log: Logger,
  stops: Stop[],
): ClusterSide {
  const poller = vsphere.poller;
  const access = vsphere.demo?.kubeConfig
    ? { enabled: true as const, kubeConfig: vsphere.demo.kubeConfig }
    : kubeConfigFromConfig(config.kubernetes, kubeEnv);
  const kubeConfig = access.enabled ? access.kubeConfig : undefined;
  const ownNamespace = resolveOwnNamespace(kubeConfig, kubeEnv.podNamespace);
  const defaults = { cpuMilli: cpuMilli(config.burstGuard.defaultCpu), memoryBytes: memoryBytes(config.burstGuard.defaultMemory) };
  let informer: ClusterInformer | undefined;
  // pods hvx answered for count on their best node until the informer shows them bound (the bind latency's blind window)
  const inFlight: InFlightLedger = new InFlightLedger({
    pendingPod: (uid) => informer?.pendingPod(uid),
    ...createInFlightMetrics(registry, () => inFlight.size(Date.now())),
  });
  if (access.enabled) {
    informer = startClusterInformer(config, access.kubeConfig, defaults, inFlight, registry, log, stops);
    if (config.nodeLabels.enabled)
      startNodeLabeller(config, access.kubeConfig, ownNamespace, informer, poller, log, stops, kubeEnv.podName);
    if (config.rebalance.enabled)
      startRebalancer(config, access.kubeConfig, ownNamespace, informer, poller, registry, log, stops, kubeEnv.podName);
  } else {
    if (config.rebalance.enabled) log.warn("rebalance.enabled has no effect without the Kubernetes API");
    log.info({ why: access.why }, "Kubernetes API not used: extender-only mode (nodes mapped by what kube-scheduler sends)");
  }
  return { kubeConfig, ownNamespace, defaults, informer, inFlight };
}
