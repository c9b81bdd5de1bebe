import { hostname } from "node:os";
import { CoordinationV1Api, CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { collectDefaultMetrics, Registry } from "prom-client";
import {
  ClusterInformer,
  createClusterMetrics,
  kubeConfigFromConfig,
  LeaseElector,
  makeTimedApiClient,
  NodeLabeller,
  Rebalancer,
  REBALANCER_LEASE,
  resolveOwnNamespace,
} from "./cluster/index.js";
import { createRebalanceMetrics } from "./observability/rebalance-metrics.js";
import { createRequeueMetrics } from "./observability/requeue-metrics.js";
import { PodRequeuer } from "./cluster/pod-requeuer.js";
import { mentionsHostHeat } from "./protocol/format-wire-reason.js";
import { heatRejectingHosts, requeueDue } from "./placement/requeue-due.js";
import type { Config } from "./config/index.js";
import { readKubeEnv, type KubeEnv } from "./config/kube-env.js";
import { readVcenterCredentialFiles } from "./config/vcenter-credential-files.js";
import { registerCertificateExpiryGauge } from "./observability/certificate-expiry-gauge.js";
import { createTlsHandshakeMetrics } from "./observability/tls-handshake-metrics.js";
import { ExtenderMetrics } from "./observability/extender-metrics.js";
import { registerHostGauges } from "./observability/host-gauges.js";
import { registerNodeInfoGauge, vcenterLabel } from "./observability/node-info-gauge.js";
import type { Logger } from "./observability/logger.js";
import { createInFlightMetrics } from "./observability/in-flight-metrics.js";
import { createRefusalMetrics } from "./observability/refusal-metrics.js";
import { installUnhandledRejectionHandler } from "./observability/unhandled-rejections.js";
import { ShadowMetrics } from "./observability/shadow-metrics.js";
import { assessHostAlone } from "./placement/assess-host.js";
import { hostOccupancyOf, hostsBackingNodes } from "./placement/host-occupancy.js";
import { desiredNodeMarks } from "./placement/node-marks.js";
import { cpuMilli, memoryBytes } from "./quantity/index.js";
import { buildAdminApp } from "./server/admin-app.js";
import { LastKnownFleet, startAdmissionServer } from "./server/admission/index.js";
import { buildDebugNodes } from "./server/debug-nodes.js";
import { buildDebugHosts } from "./server/debug-view.js";
import { buildExtenderApp } from "./server/extender-app.js";
import { createExtenderHandlers } from "./server/extender-handlers.js";
import { inFlightEnrichment } from "./server/in-flight-enrichment.js";
import type { MetricsSource, SourceStatus } from "./model/metrics-source.js";
import { buildPrometheusSourceParts, PrometheusPoller } from "./prometheus/index.js";
import { createExplainHandler } from "./server/explain-handler.js";
import { describeSourceDown } from "./server/source-down.js";
import { InFlightLedger } from "./placement/in-flight-ledger.js";
import { EventLoopWatch } from "./server/liveness.js";
import type { FilterOutcome } from "./placement/filter-nodes.js";
import type { ParsedExtenderArgs } from "./protocol/parse-extender-args.js";
import { pollCycleEnded, ReadinessGate } from "./server/readiness.js";
import { RecentNodes } from "./server/recent-nodes.js";
import { routeList } from "./server/route-list.js";
import { ShadowRecorder } from "./server/shadow-recorder.js";
import { IN_FLIGHT_GRACE_MS, startListener } from "./server/start-listener.js";
import { buildVcenterParts, MultiVcenterSource, VcenterPoller, type VcenterPollerOptions } from "./vsphere/index.js";
import { registerOversellMetrics } from "./observability/oversell-metrics.js";
import { TwoLayerViewCache } from "./server/two-layer-view-cache.js";
import { heatByHost } from "./server/two-layer-views.js";
import { renderUiPage } from "./server/ui/ui-page.js";
import { startDemo } from "./start-demo.js";
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
    // Standard names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, ...), as dashboards expect them.
    collectDefaultMetrics({ register: registry });
    stops.push(installUnhandledRejectionHandler(log, registry));
    const several = config.vcenters.length > 0;
    const demo = config.vcenter.url === undefined && !several ? await startDemo(config, log, stops) : undefined;
    const vcenter = demo ? { ...config.vcenter, ...demo.credentials, url: demo.vcenterUrl } : config.vcenter;

    // The demo's credentials come from its scenario, not from the files.
    const credentialFiles = demo ? {} : readVcenterCredentialFiles();
    const poller = several
      ? startVcenters(config, log, registry, credentialFiles)
      : startMetricsSource(config, vcenter, log, registry, credentialFiles);
    stops.push(() => poller.stop());

    const access = demo?.kubeConfig
      ? { enabled: true as const, kubeConfig: demo.kubeConfig }
      : kubeConfigFromConfig(config.kubernetes, kubeEnv);
    const ownNamespace = resolveOwnNamespace(access.enabled ? access.kubeConfig : undefined, kubeEnv.podNamespace);
    const defaults = { cpuMilli: cpuMilli(config.burstGuard.defaultCpu), memoryBytes: memoryBytes(config.burstGuard.defaultMemory) };
    let informer: ClusterInformer | undefined;
    // pods hvx answered for count on their best node until the informer shows them bound (the bind latency's blind window)
    const inFlight: InFlightLedger = new InFlightLedger({
      pendingPod: (uid) => informer?.pendingPod(uid),
      ...createInFlightMetrics(registry, () => inFlight.size(Date.now())),
    });
    if (access.enabled) {
      const { resyncSeconds, watchIdleSeconds, requestTimeoutSeconds } = config.kubernetes;
      const listApi = makeTimedApiClient(access.kubeConfig, CoreV1Api, requestTimeoutSeconds * 1000);
      informer = new ClusterInformer({
        kubeConfig: access.kubeConfig,
        listApi,
        defaults,
        resyncSeconds,
        watchIdleSeconds,
        log,
        metrics: createClusterMetrics(registry),
        onPodSettled: (uid, how) => inFlight.settled(uid, how),
      });
      // Scheduling must not wait for the API server: until synced, hvx decides as without it.
      informer.start().then(
        () => log.info("Kubernetes informers synced (nodes, pods, namespaces)"),
        (err: Error) => log.error({ error: err.message }, "Kubernetes informers not synced yet; still retrying"),
      );
      stops.push(() => informer!.stop());
      if (config.nodeLabels.enabled)
        startNodeLabeller(config, access.kubeConfig, ownNamespace, informer, poller, log, stops, kubeEnv.podName);
      if (config.rebalance.enabled)
        startRebalancer(config, access.kubeConfig, ownNamespace, informer, poller, registry, log, stops, kubeEnv.podName);
    } else {
      if (config.rebalance.enabled) log.warn("rebalance.enabled has no effect without the Kubernetes API");
      log.info({ why: access.why }, "Kubernetes API not used: extender-only mode (nodes mapped by what kube-scheduler sends)");
    }
    const clusterView = () => informer?.latest();
    registerHostGauges(registry, { inventory: () => poller.latest(), cluster: clusterView, policy: config, clock: Date.now });
    registerNodeInfoGauge(registry, {
      inventory: () => poller.latest(),
      cluster: clusterView,
      nodeMapping: config.nodeMapping,
      vcenter: several ? config.vcenters.map((vc) => vc.name ?? vcenterLabel(vc.url!)).join(",") : vcenterLabel(vcenter.url!),
    });
    const watchCertificate = registerCertificateExpiryGauge(registry);
    const handshakeMetrics = createTlsHandshakeMetrics(registry);

    const twoLayers = startTwoLayers(config, poller, informer, registry, log, stops);
    const shadowMetrics = new ShadowMetrics(registry);
    const shadow = new ShadowRecorder({ metrics: shadowMetrics, log, clock: Date.now });
    const recentNodes = new RecentNodes();
    if (config.mode === "observe")
      log.warn(
        "mode: observe: the extender passes every node with neutral scores; what hvx would do is logged and shown at GET /debug/shadow",
      );
    const enrich = informer ? inFlightEnrichment(informer, inFlight, defaults) : {};
    const requeuer =
      access.enabled && informer && config.requeue.enabled
        ? startRequeuer(config, access.kubeConfig, informer, poller, registry, log, stops)
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
      ...(informer && access.enabled
        ? { cluster: { readPod: podReader(access.kubeConfig), nodeNames: () => [...informer!.latest().nodes.keys()] } }
        : {}),
    });
    const countRefusal = createRefusalMetrics(registry);
    const loop = new EventLoopWatch();
    loop.start();
    stops.push(() => loop.stop());
    const alive = () => loop.current();
    const readiness = new ReadinessGate({
      startedAtMs,
      graceSeconds: config.server.readinessGraceSeconds,
      firstPollEnded: () => pollCycleEnded(poller.status()),
      liveness: alive,
    });
    const ready = () => readiness.current();
    // All listeners close together (one in-flight grace for all), before anything they use stops.
    const listeners: Array<{ drain(): void; close(graceMs?: number): Promise<void> }> = [];
    stops.push(() => Promise.all(listeners.map((l) => l.close(IN_FLIGHT_GRACE_MS))).then(() => undefined));

    const extender = await startListener({
      name: "extender",
      portKey: "server.port",
      port: config.server.port,
      ...(config.server.address !== undefined ? { host: config.server.address, hostKey: "server.address" } : {}),
      handshakeMetrics,
      handler: buildExtenderApp({
        handlers,
        bodyLimitMB: config.server.bodyLimitMB,
        readiness: ready,
        liveness: alive,
        onRefuse: (reason) => countRefusal("extender", reason),
      }),
      ...(config.server.tls ? { tls: config.server.tls, tlsKey: "server.tls" } : {}),
      log,
    });
    listeners.push(extender);
    watchCertificate({ listener: "extender", notAfterMs: () => extender.certificateNotAfterMs() });
    const extenderPort = extender.port;
    log.info(
      {
        address: config.server.address,
        port: extenderPort,
        tls: extender.tls,
        clientCertificates: config.server.tls?.clientCAFile !== undefined,
      },
      `extender listening (${Object.keys(handlers)
        .map((v) => `POST /${v}`)
        .join(", ")}, GET /healthz, /readyz)`,
    );
    if (!config.server.tls) log.info("extender: plain HTTP (no server.tls); anyone who can reach server.port can call the verbs");

    const adminApp = buildAdminApp({
      registry,
      debugHosts: () => buildDebugHosts(poller.latest(), config, Date.now(), poller.status()),
      debugViews: {
        ...(informer ? { cluster: () => ({ status: informer!.status(), nodes: informer!.latest().nodes.size }) } : {}),
        nodes: () => buildDebugNodes(poller.latest(), config.nodeMapping, informer?.latest(), () => recentNodes.list()),
        shadow: () => ({ mode: config.mode, admissionMode: config.admission.mode, recent: shadow.recent() }),
        oversell: () => twoLayers.oversell(),
        advice: () => withSourceDown(twoLayers.advice(), describeSourceDown(poller.latest(), poller.status())),
      },
      uiPage: () => renderUiPage({ refreshSeconds: config.vcenter.pollIntervalSeconds, thresholds: config.thresholds }),
      readiness: ready,
      liveness: alive,
      explain: { handler: explain, bodyLimitMB: config.server.bodyLimitMB },
    });
    const admin = await startListener({
      name: "admin",
      portKey: "server.adminPort",
      port: config.server.adminPort,
      ...(config.server.adminAddress !== undefined ? { host: config.server.adminAddress, hostKey: "server.adminAddress" } : {}),
      handler: adminApp,
      log,
    });
    listeners.push(admin);
    log.info({ address: config.server.adminAddress, port: admin.port }, `admin listening (${routeList(adminApp)})`);

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
        handshakeMetrics,
        shadow: shadowMetrics,
      });
      listeners.push(admission);
      watchCertificate({ listener: "admission", notAfterMs: () => admission.certificateNotAfterMs() });
      admissionPort = admission.port;
      log.info(
        { address: config.admission.address, port: admissionPort, tls: config.admission.tls !== undefined },
        `admission webhook listening (POST /mutate${config.admission.mode === "observe" ? ", admission.mode: observe: nothing patched" : ""})`,
      );
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
      vcenterUrl: several ? config.vcenters[0]!.url! : vcenter.url!,
      demo: demo !== undefined,
      stop: stopAll,
      shutdown,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** `metrics.source`: the vCenter poller (QueryPerf) or the Prometheus source (issue 11). */
function startMetricsSource(
  config: Readonly<Config>,
  vcenter: Config["vcenter"],
  log: Logger,
  registry: Registry,
  credentialFiles: VcenterPollerOptions["credentialFiles"],
): MetricsSource & { status(): SourceStatus; stop(): void } {
  const maxMetricAgeSeconds = config.thresholds.maxMetricAgeSeconds;
  if (config.metrics.source === "vcenter") {
    const parts = buildVcenterParts({ vcenter, log, registry });
    const poller = new VcenterPoller({
      vcenter,
      maxMetricAgeSeconds,
      log,
      ...parts,
      prediction: config.prediction,
      ...(credentialFiles ? { credentialFiles } : {}),
    });
    poller.start();
    return poller;
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
function startVcenters(
  config: Readonly<Config>,
  log: Logger,
  registry: Registry,
  credentialFiles: VcenterPollerOptions["credentialFiles"],
): MetricsSource & { status(): SourceStatus; stop(): Promise<void> } {
  if (config.metrics.source !== "vcenter")
    throw new Error("vcenters: is supported with metrics.source: vcenter only (use one vcenter: with prometheus)");
  const maxMetricAgeSeconds = config.thresholds.maxMetricAgeSeconds;
  if (config.vcenters.length === 1) {
    const { name: _name, ...vc } = config.vcenters[0]!;
    const parts = buildVcenterParts({ vcenter: vc, log, registry });
    const poller = new VcenterPoller({
      vcenter: vc,
      maxMetricAgeSeconds,
      log,
      ...parts,
      prediction: config.prediction,
      ...(credentialFiles ? { credentialFiles } : {}),
    });
    poller.start();
    return poller;
  }
  const sources = config.vcenters.map((vc) => {
    const name = vc.name!;
    const vcLog = log.child({ vcenter: name });
    const parts = buildVcenterParts({ vcenter: vc, name, log: vcLog, registry });
    const poller = new VcenterPoller({
      vcenter: vc,
      maxMetricAgeSeconds,
      log: vcLog,
      ...parts,
      prediction: config.prediction,
      ...(credentialFiles ? { credentialFiles } : {}),
    });
    poller.start();
    return { name, source: poller };
  });
  log.info({ vcenters: sources.map((s) => s.name) }, "polling several vCenters; host and VM ids are prefixed with the vCenter name");
  return new MultiVcenterSource(sources, log);
}

function startNodeLabeller(
  config: Readonly<Config>,
  kc: KubeConfig,
  namespace: string,
  informer: ClusterInformer,
  poller: MetricsSource,
  log: Logger,
  stops: Stop[],
  podName: string | undefined,
): void {
  const identity = `${podName ?? hostname()}-${process.pid}`;
  const { leaseDurationSeconds, intervalSeconds, hysteresisPercent, minHeatChangeSeconds } = config.nodeLabels;
  const timeoutMs = config.kubernetes.requestTimeoutSeconds * 1000;
  // A Lease call may not outlive the renew deadline (2/3 of the lease), as in client-go.
  const leaseApi = makeTimedApiClient(kc, CoordinationV1Api, Math.min(timeoutMs, (leaseDurationSeconds * 1000 * 2) / 3));
  const elector = new LeaseElector({ api: leaseApi, namespace, identity, leaseDurationSeconds, log });
  const labeller = new NodeLabeller({
    api: makeTimedApiClient(kc, CoreV1Api, timeoutMs),
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

/** `requeue.enabled` (with the cluster view): pods rejected for host heat are touched once the host cools (issue 25 §2). */
function startRequeuer(
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

function podRefOf(req: ParsedExtenderArgs): { uid: string; namespace: string; name: string } {
  return { uid: req.args.Pod.metadata?.uid ?? "", namespace: req.pod.namespace, name: req.pod.name };
}

/** `rebalance.enabled`: its own Lease (hvx-rebalancer), so it may lead on another replica than the labeller. */
function startRebalancer(
  config: Readonly<Config>,
  kc: KubeConfig,
  namespace: string,
  informer: ClusterInformer,
  poller: MetricsSource,
  registry: Registry,
  log: Logger,
  stops: Stop[],
  podName: string | undefined,
): void {
  const identity = `${podName ?? hostname()}-${process.pid}`;
  const r = config.rebalance;
  const timeoutMs = config.kubernetes.requestTimeoutSeconds * 1000;
  const leaseApi = makeTimedApiClient(kc, CoordinationV1Api, Math.min(timeoutMs, (r.leaseDurationSeconds * 1000 * 2) / 3));
  const elector = new LeaseElector({
    api: leaseApi,
    namespace,
    name: REBALANCER_LEASE,
    identity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    log,
  });
  const rebalancer = new Rebalancer({
    api: makeTimedApiClient(kc, CoreV1Api, timeoutMs),
    elector,
    cluster: informer,
    inventory: poller,
    placement: config,
    rebalance: { ...r, hotHostBrakePercent: config.admission.hotHostBrakePercent },
    dryRun: r.dryRun,
    intervalMs: r.intervalSeconds * 1000,
    observeMs: config.vcenter.pollIntervalSeconds * 1000,
    hysteresisPercent: config.nodeLabels.hysteresisPercent,
    identity,
    metrics: createRebalanceMetrics(registry),
    log,
  });
  log.warn(
    {
      dryRun: r.dryRun,
      hotForMinutes: r.hotForMinutes,
      maxEvictionsPerCycle: r.maxEvictionsPerCycle,
      maxEvictionsPerHour: r.maxEvictionsPerHour,
    },
    r.dryRun ? "rebalance: on, dry run (Events and logs only)" : "rebalance: on: evicting pods off chronically hot ESXi hosts",
  );
  elector.start();
  rebalancer.start();
  stops.push(() => elector.stop());
  stops.push(() => rebalancer.stop());
}

/**
 * The ledger and advice, computed once per snapshot, and their sources: pain history and VM
 * reservations, refreshed every poll interval.
 */
function startTwoLayers(
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

/** Reads one pod for `GET /debug/explain?pod=`; undefined when the API server answers 404. */
function podReader(kc: KubeConfig): (namespace: string, name: string) => Promise<unknown> {
  const api = kc.makeApiClient(CoreV1Api);
  return async (namespace, name) => {
    try {
      // Plain JSON, as the extender receives pods (the client turns timestamps into Date objects).
      return JSON.parse(JSON.stringify(await api.readNamespacedPod({ namespace, name }))) as unknown;
    } catch (err) {
      if ((err as { code?: unknown }).code === 404) return undefined;
      throw err;
    }
  };
}

/** Whether the synced informer cache knows a namespace; undefined before the first sync. */
function knownNamespace(informer: ClusterInformer, namespace: string): boolean | undefined {
  const view = informer.latest();
  return view.syncedAtMs === undefined ? undefined : view.namespaces.has(namespace);
}

/** The advice with `sourceDown` when hvx has no vSphere data (its findings then say nothing about vSphere). */
function withSourceDown<T extends object>(advice: T, down: string | undefined): T & { sourceDown?: string } {
  return down === undefined ? advice : { ...advice, sourceDown: down };
}
