import type { Registry } from "prom-client";
import type { Config } from "../config/index.js";
import { readVcenterCredentialFiles } from "../config/vcenter-credential-files.js";
import type { MetricsSource, SourceStatus } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import { vcenterLabel } from "../observability/node-info-gauge.js";
import { startDemo, type Demo } from "../start-demo.js";
import { startMetricsSource, startVcenters } from "./start-metrics-source.js";
import type { Stop } from "./stops.js";
import { watchEmptyPools } from "./watch-empty-pools.js";

export interface VsphereSide {
  /** The hosts' and VMs' metrics: the vCenter poller(s) or the Prometheus source. */
  readonly poller: MetricsSource & { status(): SourceStatus };
  /** The bundled mocks, when neither `vcenter.url` nor `vcenters:` is set. */
  readonly demo: Demo | undefined;
  /** The vCenter polled (the first one of `vcenters:`). */
  readonly vcenterUrl: string;
  /** The node info gauge's `vcenter` label: the vCenters' names, or the one vCenter's host name. */
  readonly vcenterLabel: string;
}

/**
 * The vSphere side: the metrics source of `vcenter:` or `vcenters:`, or, with neither, the demo's
 * mock vCenter (and fake Kubernetes API); and the watch on workload-class pools left empty.
 */
export async function startVsphereSide(config: Readonly<Config>, log: Logger, registry: Registry, stops: Stop[]): Promise<VsphereSide> {
  const several = config.vcenters.length > 0;
  const demo = config.vcenter.url === undefined && !several ? await startDemo(config, log, stops) : undefined;
  const vcenter = demo ? { ...config.vcenter, ...demo.credentials, url: demo.vcenterUrl } : config.vcenter;

  // The demo's credentials come from its scenario, not from the files.
  const credentialFiles = demo ? {} : readVcenterCredentialFiles();
  const poller = several
    ? startVcenters(config, log, registry, credentialFiles)
    : startMetricsSource(config, vcenter, log, registry, credentialFiles);
  stops.push(() => poller.stop());
  stops.push(watchEmptyPools(() => poller.latest(), config.workloadClasses, log, config.vcenter.pollIntervalSeconds * 1000));
  return {
    poller,
    demo,
    vcenterUrl: several ? config.vcenters[0]!.url! : vcenter.url!,
    vcenterLabel: several ? config.vcenters.map((vc) => vc.name ?? vcenterLabel(vc.url!)).join(",") : vcenterLabel(vcenter.url!),
  };
}
