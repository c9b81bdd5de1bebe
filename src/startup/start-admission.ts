import type { Registry } from "prom-client";
import type { ClusterInformer } from "../cluster/index.js";
import type { Config } from "../config/index.js";
import type { MetricsSource } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { countOptedInNamespaces, registerOptedInNamespacesGauge } from "../observability/opted-in-namespaces-gauge.js";
import type { ShadowMetrics } from "../observability/shadow-metrics.js";
import type { TlsHandshakeMetrics } from "../observability/tls-handshake-metrics.js";
import { assessHostAlone } from "../placement/assess-host.js";
import { hostsBackingNodes } from "../placement/host-occupancy.js";
import { LastKnownFleet, startAdmissionServer } from "../server/admission/index.js";

export interface AdmissionWiring {
  readonly config: Readonly<Config>;
  readonly ownNamespace: string;
  readonly poller: MetricsSource;
  readonly informer: ClusterInformer | undefined;
  readonly registry: Registry;
  readonly log: Logger;
  readonly countRefusal: Parameters<typeof startAdmissionServer>[0]["countRefusal"];
  readonly handshakeMetrics: TlsHandshakeMetrics;
  readonly shadowMetrics: ShadowMetrics;
}

/** The oversell webhook's listener (`admission.enabled`). */
export async function startAdmission(w: AdmissionWiring): ReturnType<typeof startAdmissionServer> {
  const { config, informer, log } = w;
  // Remembers the last known cap and brake, so they never fall away with vCenter.
  const fleet = new LastKnownFleet({
    hosts: () => hostsBackingNodes(w.poller.latest(), informer?.latest(), config.nodeMapping),
    assess: (h, nowMs) => assessHostAlone(h, config.thresholds, nowMs),
    clock: Date.now,
    log,
  });
  const admission = await startAdmissionServer({
    config: config.admission,
    ownNamespace: w.ownNamespace,
    fleet: () => fleet.current(),
    namespaceLabels: (ns) => informer?.latest().namespaces.get(ns),
    ...(informer ? { knownNamespace: (ns: string) => knownNamespace(informer, ns) } : {}),
    log,
    registry: w.registry,
    countRefusal: w.countRefusal,
    handshakeMetrics: w.handshakeMetrics,
    shadow: w.shadowMetrics,
  });
  if (informer) registerOptedInNamespacesGauge(w.registry, () => optedIn(informer));
  return admission;
}

/** The webhook's "listening" line, logged once every listener is bound. */
export function announceAdmission(config: Readonly<Config>, port: number, log: Logger): void {
  log.info(
    { address: config.admission.address, port, tls: config.admission.tls !== undefined },
    `admission webhook listening (POST /mutate${config.admission.mode === "observe" ? ", admission.mode: observe: nothing patched" : ""})`,
  );
}

/** Whether the synced informer cache knows a namespace; undefined before the first sync. */
function knownNamespace(informer: ClusterInformer, namespace: string): boolean | undefined {
  const view = informer.latest();
  return view.syncedAtMs === undefined ? undefined : view.namespaces.has(namespace);
}

/** Opted-in namespaces in the synced cache; undefined before the first sync. */
function optedIn(informer: ClusterInformer): number | undefined {
  const view = informer.latest();
  return countOptedInNamespaces(view.syncedAtMs === undefined ? undefined : view.namespaces);
}
