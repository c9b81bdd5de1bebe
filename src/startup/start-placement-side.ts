import type { Registry } from "prom-client";
import type { Config } from "../config/index.js";
import { ExtenderMetrics } from "../observability/extender-metrics.js";
import type { Logger } from "../observability/logger.js";
import { ShadowMetrics } from "../observability/shadow-metrics.js";
import type { FilterOutcome } from "../placement/filter-nodes.js";
import { heatRejectingHosts } from "../placement/requeue-due.js";
import type { ParsedExtenderArgs } from "../protocol/parse-extender-args.js";
import { createExplainHandler, type ExplainHandler } from "../server/explain-handler.js";
import { createExtenderHandlers, type ExtenderHandlers } from "../server/extender-handlers.js";
import { inFlightEnrichment } from "../server/in-flight-enrichment.js";
import { RECENT_NODES_MAX, RecentNodes } from "../server/recent-nodes.js";
import { listsFromCache } from "../server/debug-nodes.js";
import { ShadowRecorder } from "../server/shadow-recorder.js";
import type { TwoLayerViewCache } from "../server/two-layer-view-cache.js";
import { podReader } from "./pod-reader.js";
import type { ClusterSide } from "./start-cluster-side.js";
import { podRefOf, startRequeuer } from "./start-requeuer.js";
import { startTwoLayers } from "./start-two-layers.js";
import type { Stop } from "./stops.js";
import type { VsphereSide } from "./start-vsphere-side.js";

export interface PlacementSide {
  /** The extender verbs (filter, prioritize, preempt). */
  readonly handlers: ExtenderHandlers;
  /** `/debug/explain`: the same decisions, told in words. */
  readonly explain: ExplainHandler;
  /** What observe mode would have done (`/debug/shadow`). */
  readonly shadow: ShadowRecorder;
  readonly shadowMetrics: ShadowMetrics;
  /** The nodes of recent requests (`/debug/nodes` without a cluster view). */
  readonly recentNodes: RecentNodes;
  /** The oversell ledger and the advice (`/debug/oversell`, `/debug/advice`). */
  readonly twoLayers: TwoLayerViewCache;
}

/**
 * What decides placements from both sides' views: the extender verbs (with the cluster view and
 * the in-flight pods when there is one), `/debug/explain`, the shadow record of `mode: observe`,
 * the two-layer views, and the requeuer told of pods rejected for host heat (`requeue.enabled`).
 */
export function startPlacementSide(
  config: Readonly<Config>,
  vsphere: VsphereSide,
  cluster: ClusterSide,
  registry: Registry,
  log: Logger,
  stops: Stop[],
): PlacementSide {
  const { poller } = vsphere;
  const { informer, kubeConfig } = cluster;
  const twoLayers = startTwoLayers(config, poller, informer, registry, log, stops);
  const shadowMetrics = new ShadowMetrics(registry);
  const shadow = new ShadowRecorder({ metrics: shadowMetrics, log, clock: Date.now });
  const recentNodes = new RecentNodes(RECENT_NODES_MAX, () => !listsFromCache(informer?.latest()));
  if (config.mode === "observe")
    log.warn(
      "mode: observe: the extender passes every node with neutral scores; what hvx would do is logged and shown at GET /debug/shadow",
    );
  const enrich = informer ? inFlightEnrichment(informer, cluster.inFlight, cluster.defaults, config.workloadClasses) : {};
  const requeuer =
    kubeConfig && informer && config.requeue.enabled
      ? startRequeuer(config, kubeConfig, informer, poller, registry, log, stops)
      : undefined;
  const handlers = createExtenderHandlers({
    mode: config.mode,
    shadow,
    shadowMetrics,
    whenAllRejected: config.filter.whenAllRejected,
    onNodes: (nodes) => recentNodes.saw(nodes),
    source: poller,
    policy: config,
    metrics: new ExtenderMetrics(registry),
    log,
    ...enrich,
    ...(requeuer
      ? { onFiltered: (req: ParsedExtenderArgs, outcome: FilterOutcome) => requeuer.remember(podRefOf(req), heatRejectingHosts(outcome)) }
      : {}),
  });
  const explain = createExplainHandler({
    source: poller,
    sourceStatus: () => poller.status(),
    policy: config,
    ...enrich,
    ...(informer && kubeConfig
      ? { cluster: { readPod: podReader(kubeConfig), nodeNames: () => [...informer.latest().nodes.keys()] } }
      : {}),
  });
  return { handlers, explain, shadow, shadowMetrics, recentNodes, twoLayers };
}
