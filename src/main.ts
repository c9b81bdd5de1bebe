import { createServer, type RequestListener, type Server } from "node:http";
import { hostname } from "node:os";
import { CoordinationV1Api, CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { collectDefaultMetrics, Registry } from "prom-client";
import { ClusterInformer, createClusterMetrics, kubeConfigFromConfig, LeaseElector, NodeLabeller, resolveOwnNamespace, toPodView } from "./cluster/index.js";
import type { PodWire } from "./cluster/to-pod-view.js";
import type { Config } from "./config/index.js";
import { readKubeEnv, type KubeEnv } from "./config/kube-env.js";
import { ExtenderMetrics } from "./observability/extender-metrics.js";
import type { Logger } from "./observability/logger.js";
import { assessHostAlone } from "./placement/assess-host.js";
import { hostsBackingNodes } from "./placement/host-occupancy.js";
import { desiredNodeMarks } from "./protocol/node-marks.js";
import { cpuMilli, memoryBytes } from "./quantity/index.js";
import { LastKnownFleet, startAdmissionServer } from "./server/admission/index.js";
import { buildDebugHosts } from "./server/debug-view.js";
import { buildExtenderApp } from "./server/extender-app.js";
import { createExtenderHandlers } from "./server/extender-handlers.js";
import type { MetricsSource, SourceStatus } from "./model/metrics-source.js";
import { PrometheusPoller } from "./prometheus/index.js";
import { VcenterPoller } from "./vsphere/index.js";

export interface RunningHvx {
  readonly extenderPort: number;
  readonly admissionPort?: number;
  readonly vcenterUrl: string;
  readonly demo: boolean;
  stop(): Promise<void>;
}

type Stop = () => Promise<void> | void;

/**
 * The composition root: the only place that creates adapters. Without `vcenter.url` it runs
 * the demo: the bundled mock vCenter (demo scenario) and a fake Kubernetes API whose nodes are
 * the demo's worker VMs. Everything is stopped in reverse order.
 */
export async function startHvx(config: Readonly<Config>, log: Logger, kubeEnv: KubeEnv = readKubeEnv()): Promise<RunningHvx> {
  const stops: Stop[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        log.warn({ err }, "error while stopping");
      }
    }
  };
  try {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: "hvx_process_" });
    const demo = config.vcenter.url === undefined ? await startDemo(config, log, stops) : undefined;
    const vcenter = demo ? { ...config.vcenter, ...demo.credentials, url: demo.vcenterUrl } : config.vcenter;

    const poller = startMetricsSource(config, vcenter, log, registry);
    stops.push(() => poller.stop());

    const access = demo?.kubeConfig ? { enabled: true as const, kubeConfig: demo.kubeConfig } : kubeConfigFromConfig(config.kubernetes, kubeEnv);
    const ownNamespace = resolveOwnNamespace(access.enabled ? access.kubeConfig : undefined, kubeEnv.podNamespace);
    const defaults = { cpuMilli: cpuMilli(config.burstGuard.defaultCpu), memoryBytes: memoryBytes(config.burstGuard.defaultMemory) };
    let informer: ClusterInformer | undefined;
    if (access.enabled) {
      informer = new ClusterInformer({ kubeConfig: access.kubeConfig, defaults, resyncSeconds: config.kubernetes.resyncSeconds, log, metrics: createClusterMetrics(registry) });
      // Scheduling must not wait for the API server: until synced, hvx decides as without it.
      informer.start().then(
        () => log.info("Kubernetes informers synced (nodes, pods, namespaces)"),
        (err: Error) => log.error({ error: err.message }, "Kubernetes informers not synced yet; still retrying"),
      );
      stops.push(() => informer!.stop());
      if (config.nodeLabels.enabled) startNodeLabeller(config, access.kubeConfig, ownNamespace, informer, poller, log, stops, kubeEnv.podName);
    } else {
      log.info({ why: access.why }, "Kubernetes API not used: extender-only mode (nodes mapped by what kube-scheduler sends)");
    }

    const handlers = createExtenderHandlers({
      source: poller,
      policy: config,
      metrics: new ExtenderMetrics(registry),
      log,
      ...(informer
        ? { enrich: (ctx, req) => ({ ...ctx, cluster: { view: informer!.latest(), pod: toPodView(req.args.Pod as PodWire, defaults, ctx.nowMs) } }) }
        : {}),
    });
    let ready = true;
    const app = buildExtenderApp({
      handlers,
      registry,
      bodyLimitMB: config.server.bodyLimitMB,
      debugHosts: () => buildDebugHosts(poller.latest(), config, Date.now(), poller.status()),
      ...(informer ? { debugViews: { cluster: () => ({ status: informer!.status(), nodes: informer!.latest().nodes.size }) } } : {}),
      isReady: () => ready,
    });
    const server = await listen(app, config.server.port);
    stops.push(() => {
      ready = false;
      return closeServer(server);
    });
    const extenderPort = (server.address() as { port: number }).port;
    log.info({ port: extenderPort }, "extender listening (POST /filter, POST /prioritize)");

    let admissionPort: number | undefined;
    if (config.admission.enabled) {
      // Remembers the last known cap and brake, so they never fall away with vCenter.
      const fleet = new LastKnownFleet({
        hosts: () => hostsBackingNodes(poller.latest(), informer?.latest(), config.nodeMapping),
        assess: (h, nowMs) => assessHostAlone(h, config.thresholds, nowMs),
        clock: Date.now,
        log,
      });
      const admission = await startAdmissionServer({
        config: config.admission,
        ownNamespace,
        fleet: () => fleet.current(),
        namespaceLabels: (ns) => informer?.latest().namespaces.get(ns),
        log,
        registry,
      });
      stops.push(() => admission.close());
      admissionPort = admission.port;
      log.info({ port: admissionPort, tls: config.admission.tls !== undefined }, "admission webhook listening (POST /mutate)");
    }
    return { extenderPort, ...(admissionPort !== undefined ? { admissionPort } : {}), vcenterUrl: vcenter.url!, demo: demo !== undefined, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** `metrics.source`: the vCenter poller (QueryPerf) or the Prometheus source (issue 11). */
function startMetricsSource(config: Readonly<Config>, vcenter: Config["vcenter"], log: Logger, registry: Registry): MetricsSource & { status(): SourceStatus; stop(): void } {
  const maxMetricAgeSeconds = config.thresholds.maxMetricAgeSeconds;
  if (config.metrics.source === "vcenter") {
    const poller = new VcenterPoller({ vcenter, maxMetricAgeSeconds, log, registry });
    poller.start();
    return poller;
  }
  if (config.prometheus.flavour === "vmware_exporter" && config.nodeMapping.some((r) => r !== "name")) {
    log.warn({ nodeMapping: config.nodeMapping }, "prometheus.flavour vmware_exporter has no VM UUIDs: nodes map by name only (providerID and systemUUID rules never match)");
  }
  const poller = new PrometheusPoller({ prometheus: config.prometheus, vcenter, maxMetricAgeSeconds, log, registry });
  poller.start();
  log.info({ flavour: config.prometheus.flavour }, "metrics source: Prometheus");
  return poller;
}

function startNodeLabeller(config: Readonly<Config>, kc: KubeConfig, namespace: string, informer: ClusterInformer, poller: MetricsSource, log: Logger, stops: Stop[], podName: string | undefined): void {
  const identity = `${podName ?? hostname()}-${process.pid}`;
  const elector = new LeaseElector({ api: kc.makeApiClient(CoordinationV1Api), namespace, identity, leaseDurationSeconds: config.nodeLabels.leaseDurationSeconds, log });
  const labeller = new NodeLabeller({
    api: kc.makeApiClient(CoreV1Api),
    elector,
    cluster: informer,
    desired: () => desiredNodeMarks(informer.latest(), poller.latest(), config, Date.now()),
    intervalMs: config.nodeLabels.intervalSeconds * 1000,
    log,
  });
  elector.start();
  labeller.start();
  stops.push(() => elector.stop());
  stops.push(() => labeller.stop());
}

interface Demo {
  readonly vcenterUrl: string;
  readonly credentials: { username: string; password: string };
  readonly kubeConfig?: KubeConfig;
}

/** The mocks ship with the source tree, not with the production image: load them only for the demo. */
async function startDemo(config: Readonly<Config>, log: Logger, stops: Stop[]): Promise<Demo> {
  let vcenterMock: typeof import("../mocks/vcenter/index.js");
  let kubeMock: typeof import("../mocks/kube-apiserver/index.js");
  try {
    vcenterMock = await import("../mocks/vcenter/index.js");
    kubeMock = await import("../mocks/kube-apiserver/index.js");
  } catch (err) {
    throw new Error("vcenter.url is not set and the bundled mocks are not installed here (production image): set vcenter.url", { cause: err });
  }
  const scenario = vcenterMock.loadScenario(vcenterMock.demoScenarioPath());
  const mock = await vcenterMock.startMockVcenter({ scenario });
  stops.push(() => mock.close());
  log.warn({ vcenterUrl: mock.url }, "DEMO MODE: no vcenter.url configured, polling the bundled mock vCenter (demo scenario)");
  const credentials = { username: scenario.credentials.username, password: scenario.credentials.password };
  if (config.kubernetes.enabled === false) return { vcenterUrl: mock.url, credentials };
  const kube = await kubeMock.startFakeKubeApiserver();
  stops.push(() => kube.close());
  kube.controls.bulkLoad(kubeMock.demoCluster(scenario.vms));
  log.warn({ url: kube.url }, "DEMO MODE: watching a fake Kubernetes API whose nodes are the demo's worker VMs");
  return { vcenterUrl: mock.url, credentials, kubeConfig: kube.kubeConfig() };
}

function listen(app: RequestListener, port: number): Promise<Server> {
  const server = createServer(app);
  return new Promise((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => reject(new Error(`cannot listen on port ${port} (server.port): ${err.code ?? err.message}`)));
    server.listen(port, () => resolve(server));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
