import { hostname } from "node:os";
import { CoordinationV1Api, CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { collectDefaultMetrics, Registry } from "prom-client";
import { ClusterInformer, createClusterMetrics, kubeConfigFromConfig, LeaseElector, NodeLabeller, resolveOwnNamespace, toPodView } from "./cluster/index.js";
import type { PodWire } from "./cluster/to-pod-view.js";
import type { Config } from "./config/index.js";
import { readKubeEnv, type KubeEnv } from "./config/kube-env.js";
import { readVcenterCredentialFiles } from "./config/vcenter-credential-files.js";
import { ExtenderMetrics } from "./observability/extender-metrics.js";
import type { Logger } from "./observability/logger.js";
import { createRefusalMetrics } from "./observability/refusal-metrics.js";
import { assessHostAlone } from "./placement/assess-host.js";
import { hostOccupancyOf, hostsBackingNodes } from "./placement/host-occupancy.js";
import { desiredNodeMarks } from "./protocol/node-marks.js";
import { cpuMilli, memoryBytes } from "./quantity/index.js";
import { buildAdminApp } from "./server/admin-app.js";
import { LastKnownFleet, startAdmissionServer } from "./server/admission/index.js";
import { buildDebugHosts } from "./server/debug-view.js";
import { buildExtenderApp } from "./server/extender-app.js";
import { createExtenderHandlers } from "./server/extender-handlers.js";
import { pollCycleEnded, ReadinessGate } from "./server/readiness.js";
import { IN_FLIGHT_GRACE_MS, startListener } from "./server/start-listener.js";
import { VcenterPoller } from "./vsphere/index.js";
import { registerOversellMetrics } from "./observability/oversell-metrics.js";
import { buildAdviceView, buildOversellView, heatByHost, ledgerOf, type TwoLayerSources } from "./server/two-layer-views.js";
import { renderUiPage } from "./server/ui/ui-page.js";
import { HostPainHistory } from "./vsphere/host-pain-history.js";
import { VmReservations } from "./vsphere/vm-reservations.js";

export interface RunningHvx {
  readonly extenderPort: number;
  /** The extender port serves HTTPS (`server.tls`). */
  readonly extenderTls: boolean;
  readonly adminPort: number;
  readonly admissionPort?: number;
  readonly vcenterUrl: string;
  readonly demo: boolean;
  /** Stops at once: listeners close (in-flight requests get up to 10 s), then everything else. */
  stop(): Promise<void>;
  /**
   * Graceful shutdown (SIGTERM): /readyz turns 503 and every response closes its connection;
   * after `server.shutdownDrainSeconds` the listeners close and in-flight requests get up to
   * 10 s more; then everything else stops.
   */
  shutdown(): Promise<void>;
}

type Stop = () => Promise<void> | void;

/**
 * The composition root: the only place that creates adapters. Without `vcenter.url` it runs
 * the demo: the bundled mock vCenter (demo scenario) and a fake Kubernetes API whose nodes are
 * the demo's worker VMs. Everything is stopped in reverse order.
 */
export async function startHvx(config: Readonly<Config>, log: Logger, kubeEnv: KubeEnv = readKubeEnv()): Promise<RunningHvx> {
  const startedAtMs = Date.now();
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

    // The demo's credentials come from its scenario, not from the files.
    const credentialFiles = demo ? {} : readVcenterCredentialFiles();
    const poller = new VcenterPoller({ vcenter, maxMetricAgeSeconds: config.thresholds.maxMetricAgeSeconds, log, registry, credentialFiles });
    poller.start();
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

    const twoLayers = startTwoLayers(config, poller, informer, registry, log, stops);
    const handlers = createExtenderHandlers({
      source: poller,
      policy: config,
      metrics: new ExtenderMetrics(registry),
      log,
      ...(informer
        ? { enrich: (ctx, req) => ({ ...ctx, cluster: { view: informer!.latest(), pod: toPodView(req.args.Pod as PodWire, defaults, ctx.nowMs) } }) }
        : {}),
    });
    const countRefusal = createRefusalMetrics(registry);
    const readiness = new ReadinessGate({ startedAtMs, graceSeconds: config.server.readinessGraceSeconds, firstPollEnded: () => pollCycleEnded(poller.status()) });
    const ready = () => readiness.current();
    // All listeners close together (one in-flight grace for all), before anything they use stops.
    const listeners: Array<{ drain(): void; close(graceMs?: number): Promise<void> }> = [];
    stops.push(() => Promise.all(listeners.map((l) => l.close(IN_FLIGHT_GRACE_MS))).then(() => undefined));

    const extender = await startListener({
      name: "extender",
      portKey: "server.port",
      port: config.server.port,
      handler: buildExtenderApp({ handlers, bodyLimitMB: config.server.bodyLimitMB, readiness: ready, onRefuse: (reason) => countRefusal("extender", reason) }),
      ...(config.server.tls ? { tls: config.server.tls, tlsKey: "server.tls" } : {}),
      log,
    });
    listeners.push(extender);
    const extenderPort = extender.port;
    log.info({ port: extenderPort, tls: extender.tls, clientCertificates: config.server.tls?.clientCAFile !== undefined }, `extender listening (${Object.keys(handlers).map((v) => `POST /${v}`).join(", ")}, GET /healthz, /readyz)`);
    if (!config.server.tls) log.info("extender: plain HTTP (no server.tls); anyone who can reach server.port can call the verbs");

    const admin = await startListener({
      name: "admin",
      portKey: "server.adminPort",
      port: config.server.adminPort,
      handler: buildAdminApp({
        registry,
        debugHosts: () => buildDebugHosts(poller.latest(), config, Date.now(), poller.status()),
        debugViews: {
          ...(informer ? { cluster: () => ({ status: informer!.status(), nodes: informer!.latest().nodes.size }) } : {}),
          oversell: () => buildOversellView(twoLayers, config, Date.now()),
          advice: () => buildAdviceView(twoLayers, config, Date.now()),
        },
        uiPage: () => renderUiPage({ refreshSeconds: config.vcenter.pollIntervalSeconds }),
        readiness: ready,
      }),
      log,
    });
    listeners.push(admin);
    log.info({ port: admin.port }, "admin listening (GET /metrics, /debug/hosts, /healthz, /readyz)");

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
        ...(informer ? { knownNamespace: (ns: string) => knownNamespace(informer!, ns) } : {}),
        log,
        registry,
        countRefusal,
      });
      listeners.push(admission);
      admissionPort = admission.port;
      log.info({ port: admissionPort, tls: config.admission.tls !== undefined }, "admission webhook listening (POST /mutate)");
    }
    const shutdown = async () => {
      readiness.beginShutdown();
      for (const l of listeners) l.drain();
      const drainSeconds = config.server.shutdownDrainSeconds;
      log.info({ drainSeconds }, "shutting down: /readyz answers 503; listeners close after server.shutdownDrainSeconds");
      await new Promise((r) => setTimeout(r, drainSeconds * 1000));
      log.info({ graceSeconds: IN_FLIGHT_GRACE_MS / 1000 }, "closing listeners; in-flight requests may finish");
      await stopAll();
    };
    return {
      extenderPort,
      extenderTls: extender.tls,
      adminPort: admin.port,
      ...(admissionPort !== undefined ? { admissionPort } : {}),
      vcenterUrl: vcenter.url!,
      demo: demo !== undefined,
      stop: stopAll,
      shutdown,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

function startNodeLabeller(config: Readonly<Config>, kc: KubeConfig, namespace: string, informer: ClusterInformer, poller: VcenterPoller, log: Logger, stops: Stop[], podName: string | undefined): void {
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

/** The ledger and advice's sources: pain history and VM reservations, refreshed every poll interval. */
function startTwoLayers(config: Readonly<Config>, poller: VcenterPoller, informer: ClusterInformer | undefined, registry: Registry, log: Logger, stops: Stop[]): TwoLayerSources {
  const history = new HostPainHistory();
  const reservations = new VmReservations({ readSummary: (id) => poller.vmSummary(id), clock: Date.now, refreshMs: 3_600_000, maxReadsPerRefresh: 50, log });
  const EMPTY = { nodes: new Map(), podsByNode: new Map(), namespaces: new Map() };
  const tick = () => {
    const inventory = poller.latest();
    const now = Date.now();
    const heat = heatByHost(inventory, config.thresholds, now);
    history.observe(inventory, (id) => heat.get(id) === "hot", now);
    const vms = informer ? [...hostOccupancyOf(informer.latest(), inventory, config.nodeMapping).vmOfNode.values()] : [];
    void reservations.refresh(vms.map((v) => v.id));
  };
  const timer = setInterval(tick, config.vcenter.pollIntervalSeconds * 1000);
  timer.unref();
  stops.push(() => clearInterval(timer));
  registerOversellMetrics(registry, {
    ledger: () => ledgerOf(informer?.latest() ?? EMPTY, poller.latest(), config),
    knownNamespace: (ns) => informer?.latest().namespaces.has(ns) ?? false,
  });
  return {
    inventory: () => poller.latest(),
    cluster: () => informer?.latest(),
    reservations: () => reservations.current(),
    memoryPainSince: (now, windowMs) => history.memoryPainSince(now, windowMs),
    hotSince: (now, windowMs) => history.hotSince(now, windowMs),
  };
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

/** Whether the synced informer cache knows a namespace; undefined before the first sync. */
function knownNamespace(informer: ClusterInformer, namespace: string): boolean | undefined {
  const view = informer.latest();
  return view.syncedAtMs === undefined ? undefined : view.namespaces.has(namespace);
}
