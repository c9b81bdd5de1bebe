import type { Registry } from "prom-client";
import type { Config } from "../config/index.js";
import type { MetricsSource, SourceStatus } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { buildPrometheusSourceParts, PrometheusPoller } from "../prometheus/index.js";
import { buildVcenterParts, MultiVcenterSource, VcenterPoller, type VcenterPollerOptions } from "../vsphere/index.js";

type CredentialFiles = VcenterPollerOptions["credentialFiles"];

/** `metrics.source`: the vCenter poller (QueryPerf) or the Prometheus source (issue 11). */
export function startMetricsSource(
  config: Readonly<Config>,
  vcenter: Config["vcenter"],
  log: Logger,
  registry: Registry,
  credentialFiles: CredentialFiles,
): MetricsSource & { status(): SourceStatus; stop(): void } {
  const maxMetricAgeSeconds = config.thresholds.maxMetricAgeSeconds;
  if (config.metrics.source === "vcenter") {
    return startVcenterPoller(config, vcenter, undefined, log, registry, credentialFiles);
  }
  if (config.prometheus.flavour === "vmware_exporter" && config.nodeMapping.some((r) => r !== "name")) {
    log.warn(
      { nodeMapping: config.nodeMapping },
      "prometheus.flavour vmware_exporter has no VM UUIDs: nodes map by name only (providerID and systemUUID rules never match)",
    );
  }
  const parts = buildPrometheusSourceParts({ prometheus: config.prometheus, vcenter, log, registry });
  const poller = new PrometheusPoller({ prometheus: config.prometheus, maxMetricAgeSeconds, log, ...parts });
  poller.start();
  log.info({ flavour: config.prometheus.flavour }, "metrics source: Prometheus");
  return poller;
}

/**
 * `vcenters:` (issue 11 §2): one poller per vCenter, combined into one inventory. With more
 * than one, ids are prefixed with each name (`vc01/host-11`) and metrics labelled `vcenter`.
 */
export function startVcenters(
  config: Readonly<Config>,
  log: Logger,
  registry: Registry,
  credentialFiles: CredentialFiles,
): MetricsSource & { status(): SourceStatus; stop(): Promise<void> } {
  if (config.metrics.source !== "vcenter")
    throw new Error("vcenters: is supported with metrics.source: vcenter only (use one vcenter: with prometheus)");
  if (config.vcenters.length === 1) {
    const { name: _name, ...vc } = config.vcenters[0]!;
    return startVcenterPoller(config, vc, undefined, log, registry, credentialFiles);
  }
  const sources = config.vcenters.map((vc) => {
    const name = vc.name!;
    return { name, source: startVcenterPoller(config, vc, name, log.child({ vcenter: name }), registry, credentialFiles) };
  });
  log.info({ vcenters: sources.map((s) => s.name) }, "polling several vCenters; host and VM ids are prefixed with the vCenter name");
  return new MultiVcenterSource(sources, log);
}

function startVcenterPoller(
  config: Readonly<Config>,
  vcenter: Config["vcenter"],
  name: string | undefined,
  log: Logger,
  registry: Registry,
  credentialFiles: CredentialFiles,
): VcenterPoller {
  const parts = buildVcenterParts({ vcenter, ...(name !== undefined ? { name } : {}), log, registry });
  const poller = new VcenterPoller({
    vcenter,
    maxMetricAgeSeconds: config.thresholds.maxMetricAgeSeconds,
    thresholds: config.thresholds,
    log,
    ...parts,
    prediction: config.prediction,
    ...(credentialFiles ? { credentialFiles } : {}),
  });
  poller.start();
  return poller;
}
