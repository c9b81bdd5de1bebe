import type { Registry } from "prom-client";
import type { Config } from "../config/index.js";
import type { Logger } from "../observability/logger.js";
import { buildAdminApp } from "../server/admin-app.js";
import { buildDebugNodes } from "../server/debug-nodes.js";
import { buildDebugHosts } from "../server/debug-view.js";
import { routeList } from "../server/route-list.js";
import { describeSourceDown } from "../server/source-down.js";
import { startListener } from "../server/start-listener.js";
import { renderUiPage } from "../server/ui/ui-page.js";
import type { ServedPort } from "./listener-group.js";
import type { ClusterSide } from "./start-cluster-side.js";
import { startDelegatedAccess } from "./start-delegated-access.js";
import type { HealthChecks } from "./start-health-checks.js";
import type { PlacementSide } from "./start-placement-side.js";
import type { VsphereSide } from "./start-vsphere-side.js";

export interface AdminServerWiring {
  readonly config: Readonly<Config>;
  readonly registry: Registry;
  readonly vsphere: VsphereSide;
  readonly cluster: ClusterSide;
  readonly placement: PlacementSide;
  readonly health: HealthChecks;
  readonly log: Logger;
}

/** The admin port (`server.adminPort`): /metrics, the /debug views, /ui and health, for operators and monitoring. */
export async function startAdminServer(w: AdminServerWiring): Promise<ServedPort> {
  const { config } = w;
  const { poller } = w.vsphere;
  const { informer } = w.cluster;
  const { shadow, twoLayers, recentNodes } = w.placement;
  const app = buildAdminApp({
    registry: w.registry,
    debugHosts: () => buildDebugHosts(poller.latest(), config, Date.now(), poller.status()),
    debugViews: {
      ...(informer ? { cluster: () => ({ status: informer.status(), nodes: informer.latest().nodes.size }) } : {}),
      nodes: () => buildDebugNodes(poller.latest(), config.nodeMapping, informer?.latest(), () => recentNodes.list()),
      shadow: () => ({ mode: config.mode, admissionMode: config.admission.mode, recent: shadow.recent() }),
      oversell: () => twoLayers.oversell(),
      advice: async () => withSourceDown(await twoLayers.advice(), describeSourceDown(poller.latest(), poller.status())),
    },
    uiPage: () => renderUiPage({ refreshSeconds: config.vcenter.pollIntervalSeconds, thresholds: config.thresholds }),
    readiness: w.health.ready,
    liveness: w.health.alive,
    explain: { handler: w.placement.explain, bodyLimitMB: config.server.bodyLimitMB },
    debugAccess: config.server.debugAccess,
    ...(config.server.debugAccess === "delegated" ? { delegated: startDelegatedAccess(config, w.cluster.kubeConfig) } : {}),
  });
  const listener = await startListener({
    name: "admin",
    portKey: "server.adminPort",
    port: config.server.adminPort,
    ...(config.server.adminAddress !== undefined ? { host: config.server.adminAddress, hostKey: "server.adminAddress" } : {}),
    handler: app,
    log: w.log,
  });
  const announce = () => w.log.info({ address: config.server.adminAddress, port: listener.port }, `admin listening (${routeList(app)})`);
  return { listener, announce };
}

/** The advice with `sourceDown` when hvx has no vSphere data (its findings then say nothing about vSphere). */
function withSourceDown<T extends object>(advice: T, down: string | undefined): T & { sourceDown?: string } {
  return down === undefined ? advice : { ...advice, sourceDown: down };
}
