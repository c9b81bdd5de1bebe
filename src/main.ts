import { ConfigError, plaintextIssues, plaintextUses, type Config } from "./config/index.js";
import { readKubeEnv, type KubeEnv } from "./config/kube-env.js";
import { registerCertificateExpiryGauge } from "./observability/certificate-expiry-gauge.js";
import type { Logger } from "./observability/logger.js";
import { createRefusalMetrics } from "./observability/refusal-metrics.js";
import { createTlsHandshakeMetrics } from "./observability/tls-handshake-metrics.js";
import { createMetricsRegistry } from "./startup/create-metrics-registry.js";
import { gracefulShutdown } from "./startup/graceful-shutdown.js";
import { ListenerGroup } from "./startup/listener-group.js";
import { registerInventoryGauges } from "./startup/register-inventory-gauges.js";
import { announceAdmission, startAdmission } from "./startup/start-admission.js";
import { startAdminServer } from "./startup/start-admin-server.js";
import { startClusterSide } from "./startup/start-cluster-side.js";
import { startExtenderServer } from "./startup/start-extender-server.js";
import { startHealthChecks } from "./startup/start-health-checks.js";
import { startPlacementSide } from "./startup/start-placement-side.js";
import { startVsphereSide } from "./startup/start-vsphere-side.js";
import { stopInReverse, type Stop } from "./startup/stops.js";

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
 * The composition root: the only place that creates adapters (its parts in src/startup/). Without
 * `vcenter.url` it runs the demo: the bundled mock vCenter (demo scenario) and a fake Kubernetes
 * API whose nodes are the demo's worker VMs. Everything is stopped in reverse order.
 */
export async function startHvx(config: Readonly<Config>, log: Logger, kubeEnv: KubeEnv = readKubeEnv()): Promise<RunningHvx> {
  const startedAtMs = Date.now();
  const refusedPlaintext = plaintextIssues(config);
  if (refusedPlaintext.length > 0) throw new ConfigError(refusedPlaintext);
  for (const use of plaintextUses(config)) log.warn({ key: use.key }, `${use.key} is true: ${use.what}`);
  const stops: Stop[] = [];
  const stopAll = stopInReverse(stops, log);
  try {
    const registry = createMetricsRegistry(log, stops);
    const vsphere = await startVsphereSide(config, log, registry, stops);
    const cluster = startClusterSide(config, kubeEnv, vsphere, registry, log, stops);
    registerInventoryGauges(registry, config, vsphere, cluster);
    const watchCertificate = registerCertificateExpiryGauge(registry);
    const handshakeMetrics = createTlsHandshakeMetrics(registry);
    const placement = startPlacementSide(config, vsphere, cluster, registry, log, stops);
    const countRefusal = createRefusalMetrics(registry);
    const health = startHealthChecks(config, startedAtMs, vsphere.poller, stops);
    const listeners = new ListenerGroup(stops);

    const extender = await startExtenderServer({ config, handlers: placement.handlers, health, countRefusal, handshakeMetrics, log });
    listeners.add(extender);
    watchCertificate({ listener: "extender", notAfterMs: () => extender.listener.certificateNotAfterMs() });
    const admin = await startAdminServer({ config, registry, vsphere, cluster, placement, health, log });
    listeners.add(admin);
    const admission = config.admission.enabled
      ? await startAdmission({
          config,
          ownNamespace: cluster.ownNamespace,
          poller: vsphere.poller,
          informer: cluster.informer,
          registry,
          log,
          countRefusal,
          handshakeMetrics,
          shadowMetrics: placement.shadowMetrics,
        })
      : undefined;
    if (admission) {
      listeners.add({ listener: admission, announce: () => announceAdmission(config, admission.port, log) });
      watchCertificate({ listener: "admission", notAfterMs: () => admission.certificateNotAfterMs() });
    }
    listeners.announceAll();
    return {
      extenderPort: extender.listener.port,
      extenderTls: extender.listener.tls,
      adminPort: admin.listener.port,
      ...(admission ? { admissionPort: admission.port } : {}),
      vcenterUrl: vsphere.vcenterUrl,
      demo: vsphere.demo !== undefined,
      stop: stopAll,
      shutdown: gracefulShutdown(config, health.readiness, listeners, stopAll, log),
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
