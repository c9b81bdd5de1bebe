import { createServer, type RequestListener, type Server } from "node:http";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { Config } from "./config/index.js";
import { ExtenderMetrics } from "./observability/extender-metrics.js";
import type { Logger } from "./observability/logger.js";
import { buildDebugHosts } from "./server/debug-view.js";
import { buildExtenderApp } from "./server/extender-app.js";
import { createExtenderHandlers } from "./server/extender-handlers.js";
import { VcenterPoller } from "./vsphere/index.js";

export interface RunningHvx {
  readonly extenderPort: number;
  readonly vcenterUrl: string;
  readonly demo: boolean;
  stop(): Promise<void>;
}

/** Credentials of the bundled mock vCenter (demo only; never a production default). */
const DEMO_CREDENTIALS = { username: "administrator@vsphere.local", password: "hvx-demo" };

/**
 * The composition root: the only place that creates adapters. Without `vcenter.url`
 * it starts the bundled mock vCenter with the demo scenario (the `npm start` default).
 */
export async function startHvx(config: Readonly<Config>, log: Logger): Promise<RunningHvx> {
  const stops: Array<() => Promise<void> | void> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: "hvx_process_" });

    let vcenter = config.vcenter;
    let mock: { url: string; close(): Promise<void> } | undefined;
    if (vcenter.url === undefined) {
      mock = await startDemoVcenter();
      stops.push(() => mock!.close());
      vcenter = { ...vcenter, ...DEMO_CREDENTIALS, url: mock.url };
      log.warn({ vcenterUrl: mock.url }, "DEMO MODE: no vcenter.url configured, polling the bundled mock vCenter (demo scenario)");
    }

    const poller = new VcenterPoller({ vcenter, maxMetricAgeSeconds: config.thresholds.maxMetricAgeSeconds, log, registry });
    poller.start();
    stops.push(() => poller.stop());

    const extenderMetrics = new ExtenderMetrics(registry);
    const handlers = createExtenderHandlers({ source: poller, policy: config, metrics: extenderMetrics, log });
    let ready = true;
    const app = buildExtenderApp({
      handlers,
      registry,
      bodyLimitMB: config.server.bodyLimitMB,
      debugHosts: () => buildDebugHosts(poller.latest(), config, Date.now(), poller.status()),
      isReady: () => ready,
    });
    const server = await listen(app, config.server.port);
    stops.push(() => {
      ready = false;
      return closeServer(server);
    });
    const port = (server.address() as { port: number }).port;
    log.info({ port }, "extender listening (POST /filter, POST /prioritize)");
    return { extenderPort: port, vcenterUrl: vcenter.url!, demo: mock !== undefined, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** The mock ships with the source tree, not with the production image: load it only for the demo. */
async function startDemoVcenter(): Promise<{ url: string; close(): Promise<void> }> {
  let mockModule: typeof import("../mocks/vcenter/index.js");
  try {
    mockModule = await import("../mocks/vcenter/index.js");
  } catch (err) {
    throw new Error("vcenter.url is not set and the bundled mock vCenter is not installed here (production image): set vcenter.url", { cause: err });
  }
  return mockModule.startMockVcenter({ scenario: mockModule.loadScenario(mockModule.demoScenarioPath()) });
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
