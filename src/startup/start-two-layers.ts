import type { Registry } from "prom-client";
import type { ClusterInformer } from "../cluster/index.js";
import type { Config } from "../config/index.js";
import type { MetricsSource } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { registerOversellMetrics } from "../observability/oversell-metrics.js";
import { hostOccupancyOf } from "../placement/host-occupancy.js";
import { TwoLayerViewCache } from "../server/two-layer-view-cache.js";
import { heatByHost } from "../server/two-layer-views.js";
import { HostPainHistory } from "../vsphere/host-pain-history.js";
import { MultiVcenterSource, VcenterPoller } from "../vsphere/index.js";
import { VmReservations } from "../vsphere/vm-reservations.js";
import type { Stop } from "./stops.js";

/**
 * The ledger and advice, computed once per snapshot, and their sources: pain history and VM
 * reservations, refreshed every poll interval.
 */
export function startTwoLayers(
  config: Readonly<Config>,
  poller: MetricsSource,
  informer: ClusterInformer | undefined,
  registry: Registry,
  log: Logger,
  stops: Stop[],
): TwoLayerViewCache {
  const history = new HostPainHistory();
  // Reservations come from vCenter's VI/JSON API; with the Prometheus source they stay unknown (no finding).
  const vcenter = poller instanceof VcenterPoller || poller instanceof MultiVcenterSource ? poller : undefined;
  const reservations = new VmReservations({
    readSummary: (id) => vcenter!.vmSummary(id),
    clock: Date.now,
    refreshMs: 3_600_000,
    maxReadsPerRefresh: 50,
    log,
  });
  const views = new TwoLayerViewCache({
    policy: config,
    clock: Date.now,
    sources: {
      inventory: () => poller.latest(),
      cluster: () => informer?.latest(),
      reservations: () => reservations.current(),
      memoryPainSince: (now, windowMs) => history.memoryPainSince(now, windowMs),
      hotSince: (now, windowMs) => history.hotSince(now, windowMs),
    },
  });
  const tick = () => {
    const inventory = poller.latest();
    const now = Date.now();
    const heat = heatByHost(inventory, config.thresholds, now);
    history.observe(inventory, (id) => heat.get(id) === "hot", now);
    const vms = informer ? [...hostOccupancyOf(informer.latest(), inventory, config.nodeMapping).vmOfNode.values()] : [];
    if (vcenter) void reservations.refresh(vms.map((v) => v.id));
    void views.refresh();
  };
  const timer = setInterval(tick, config.vcenter.pollIntervalSeconds * 1000);
  timer.unref();
  stops.push(() => clearInterval(timer));
  registerOversellMetrics(registry, {
    ledger: () => views.lastLedger(),
    knownNamespace: (ns) => informer?.latest().namespaces.has(ns) ?? false,
  });
  return views;
}
