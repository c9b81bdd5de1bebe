import { collectDefaultMetrics, Registry } from "prom-client";
import { ClusterInformer, kubeConfigFromConfig, resolveOwnNamespace } from "./cluster/index.js";
import { heatRejectingHosts } from "./placement/requeue-due.js";
import { ConfigError, extenderAddress, plaintextIssues, plaintextUses, type Config } from "./config/index.js";
import { readKubeEnv, type KubeEnv } from "./config/kube-env.js";
import { readVcenterCredentialFiles } from "./config/vcenter-credential-files.js";
import { hvxVersion } from "./build-info.js";
import { registerBuildInfoGauge } from "./observability/build-info-gauge.js";
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
import { cpuMilli, memoryBytes } from "./quantity/index.js";
import { buildAdminApp } from "./server/admin-app.js";
import { buildDebugNodes } from "./server/debug-nodes.js";
import { buildDebugHosts } from "./server/debug-view.js";
import { buildExtenderApp } from "./server/extender-app.js";
import { createExtenderHandlers } from "./server/extender-handlers.js";
import { inFlightEnrichment } from "./server/in-flight-enrichment.js";
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
import { renderUiPage } from "./server/ui/ui-page.js";
import { startDemo } from "./start-demo.js";
import { announceAdmission, startAdmission } from "./startup/start-admission.js";
import { startClusterInformer } from "./startup/start-cluster-informer.js";
import { startDelegatedAccess } from "./startup/start-delegated-access.js";
import { podReader } from "./startup/pod-reader.js";
import { startMetricsSource, startVcenters } from "./startup/start-metrics-source.js";
import { startNodeLabeller } from "./startup/start-node-labeller.js";
import { startRebalancer } from "./startup/start-rebalancer.js";
import { podRefOf, startRequeuer } from "./startup/start-requeuer.js";
import { startTwoLayers } from "./startup/start-two-layers.js";
import { stopInReverse, type Stop } from "./startup/stops.js";
import { watchEmptyPools } from "./startup/watch-empty-pools.js";

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

/**
 * The composition root: the only place that creates adapters. Without `vcenter.url` it runs
 * the demo: the bundled mock vCenter (demo scenario) and a fake Kubernetes API whose nodes are
 * the demo's worker VMs. Everything is stopped in reverse order.
 */
export async function startHvx(config: Readonly<Config>, log: Logger, kubeEnv: KubeEnv = readKubeEnv()): Promise<RunningHvx> {
  const startedAtMs = Date.now();
  const refusedPlaintext = plaintextIssues(config);
  if (refusedPlaintext.length > 0) throw new ConfigError(refusedPlaintext);
  for (const use of plaintextUses(config)) log.warn({ key: use.key }, `${use.key} is true: ${use.what}`);
  const stops: Stop[] = [];
  const stopAll = stopInReverse(stops, log);
  try {
    const registry = new Registry();
    // Standard names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, ...), as dashboards expect them.
    collectDefaultMetrics({ register: registry });
    registerBuildInfoGauge(registry, { version: hvxVersion(), nodeVersion: process.version });
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
    stops.push(watchEmptyPools(() => poller.latest(), config.workloadClasses, log, config.vcenter.pollIntervalSeconds * 1000));

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
      informer = startClusterInformer(config, access.kubeConfig, defaults, inFlight, registry, log, stops);
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
    const enrich = informer ? inFlightEnrichment(informer, inFlight, defaults, config.workloadClasses) : {};
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
    // "listening" lines only once every listener is bound: a port in use fails start-up before anything is announced.
    const announce: Array<() => void> = [];
    stops.push(() => Promise.all(listeners.map((l) => l.close(IN_FLIGHT_GRACE_MS))).then(() => undefined));

    const extenderHost = extenderAddress(config);
    const extender = await startListener({
      name: "extender",
      portKey: "server.port",
      port: config.server.port,
      ...(extenderHost !== undefined ? { host: extenderHost, hostKey: "server.address" } : {}),
      handshakeMetrics,
      handler: buildExtenderApp({
        handlers,
        bodyLimitMB: config.server.bodyLimitMB,
        readiness: ready,
        liveness: alive,
        onRefuse: (reason) => countRefusal("extender", reason),
      }),
      ...(config.server.tls ? { tls: config.server.tls, tlsKey: "server.tls" } : {}),
      ...(config.server.tls?.allowedClientNames ? { allowedClientNames: config.server.tls.allowedClientNames } : {}),
      log,
    });
    listeners.push(extender);
    watchCertificate({ listener: "extender", notAfterMs: () => extender.certificateNotAfterMs() });
    const extenderPort = extender.port;
    announce.push(() =>
      log.info(
        {
          address: extenderHost,
          port: extenderPort,
          tls: extender.tls,
          clientCertificates: config.server.tls?.clientCAFile !== undefined,
        },
        `extender listening (${Object.keys(handlers)
          .map((v) => `POST /${v}`)
          .join(", ")}, GET /healthz, /readyz)`,
      ),
    );

    const adminApp = buildAdminApp({
      registry,
      debugHosts: () => buildDebugHosts(poller.latest(), config, Date.now(), poller.status()),
      debugViews: {
        ...(informer ? { cluster: () => ({ status: informer!.status(), nodes: informer!.latest().nodes.size }) } : {}),
        nodes: () => buildDebugNodes(poller.latest(), config.nodeMapping, informer?.latest(), () => recentNodes.list()),
        shadow: () => ({ mode: config.mode, admissionMode: config.admission.mode, recent: shadow.recent() }),
        oversell: () => twoLayers.oversell(),
        advice: async () => withSourceDown(await twoLayers.advice(), describeSourceDown(poller.latest(), poller.status())),
      },
      uiPage: () => renderUiPage({ refreshSeconds: config.vcenter.pollIntervalSeconds, thresholds: config.thresholds }),
      readiness: ready,
      liveness: alive,
      explain: { handler: explain, bodyLimitMB: config.server.bodyLimitMB },
      debugAccess: config.server.debugAccess,
      ...(config.server.debugAccess === "delegated"
        ? { delegated: startDelegatedAccess(config, access.enabled ? access.kubeConfig : undefined) }
        : {}),
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
    announce.push(() => log.info({ address: config.server.adminAddress, port: admin.port }, `admin listening (${routeList(adminApp)})`));

    const admission = config.admission.enabled
      ? await startAdmission({ config, ownNamespace, poller, informer, registry, log, countRefusal, handshakeMetrics, shadowMetrics })
      : undefined;
    if (admission) {
      listeners.push(admission);
      watchCertificate({ listener: "admission", notAfterMs: () => admission.certificateNotAfterMs() });
      announce.push(() => announceAdmission(config, admission.port, log));
    }
    for (const line of announce) line();
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
      ...(admission ? { admissionPort: admission.port } : {}),
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

/** The advice with `sourceDown` when hvx has no vSphere data (its findings then say nothing about vSphere). */
function withSourceDown<T extends object>(advice: T, down: string | undefined): T & { sourceDown?: string } {
  return down === undefined ? advice : { ...advice, sourceDown: down };
}
