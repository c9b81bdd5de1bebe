import NodeCache from "node-cache";
import type { Registry } from "prom-client";
import type { Config } from "../config/schema.js";
import type { InventoryView } from "../model/inventory.js";
import type { Logger } from "../observability/logger.js";
import { AutomationClient } from "../vsphere/automation-client.js";
import { runPollCycle } from "../vsphere/poll-cycle.js";
import { createPollerMetrics } from "../vsphere/poller-metrics.js";
import { VcenterConfigError } from "../vsphere/vcenter-config-error.js";
import { createVcenterHttp } from "../vsphere/vcenter-http.js";
import { VijsonClient } from "../vsphere/vijson-client.js";

/** Reads vCenter's inventory (hosts, VMs, identity, host summary) without performance queries. */
export interface VcenterInventoryReader {
  read(): Promise<InventoryView>;
  close(): Promise<void>;
}

/**
 * The telegraf flavour's inventory: the vCenter poller's own cycle (src/vsphere/poll-cycle.ts)
 * with a VI/JSON client whose performance calls never leave the process: the counter catalogue
 * is empty and QueryPerf answers nothing, so vCenter sees only the Automation API calls and
 * one host summary per host. Request counts land in `hvx_vcenter_requests_total`.
 */
export function createVcenterInventoryReader(
  vc: Config["vcenter"],
  caPem: string | undefined,
  log: Logger,
  registry: Registry,
  clock: () => number,
): VcenterInventoryReader {
  if (!vc.url)
    throw new VcenterConfigError(
      "vcenter.url is required with prometheus.flavour telegraf: the inventory (hosts, VMs, BIOS UUIDs) still comes from vCenter",
    );
  if (!vc.username || !vc.password) {
    throw new VcenterConfigError(
      "vCenter credentials missing: set vcenter.username and vcenter.password, or HVX_VCENTER_USERNAME / HVX_VCENTER_PASSWORD (or their _FILE variants)",
    );
  }
  let lastMs: number | undefined;
  let previous: InventoryView | undefined;
  const metrics = createPollerMetrics(registry);
  metrics.bindDataAge(() => (lastMs === undefined ? undefined : (clock() - lastMs) / 1000));
  const http = createVcenterHttp({
    baseUrl: vc.url,
    timeoutMs: vc.requestTimeoutSeconds * 1000,
    ...(caPem !== undefined ? { caPem } : {}),
    insecureSkipTLSVerify: vc.insecureSkipTLSVerify,
    maxConcurrency: vc.maxConcurrency,
    onRequest: (api, outcome) => metrics.countRequest(api, outcome),
  });
  const credentials = { send: http.send, username: vc.username, password: vc.password };
  const automation = new AutomationClient({ ...credentials, onRelogin: () => metrics.countRelogin("automation") });
  const vijson = new VijsonClient({ ...credentials, release: vc.viJsonRelease, onRelogin: () => metrics.countRelogin("vijson") });
  const noPerf = { perfCounters: async () => [], queryPerf: async () => [], hostSummary: (id: string) => vijson.hostSummary(id) };
  const cache = new NodeCache({ useClones: false, checkperiod: 0 });
  // The empty catalogue is on purpose: keep the poll cycle's "counters missing" warning out of the logs.
  const cycleLog = log.child({ source: "vcenter-inventory" }, { level: log.levelVal > 40 ? log.level : "error" });
  return {
    async read() {
      const started = clock();
      try {
        // A host that fails this cycle keeps its previous entry (the poll cycle's per-host isolation).
        const result = await runPollCycle({
          automation,
          vijson: noPerf,
          clusterNames: vc.clusters,
          // Inventory only: the samples come from Prometheus.
          counters: { host: [], vm: [] },
          cache,
          counterTtlSeconds: 3600,
          log: cycleLog,
          clock,
          ...(previous ? { previous } : {}),
        });
        const view = result.view;
        previous = view;
        for (const failure of result.hostFailures.values()) metrics.countHostFailure(failure.reason);
        lastMs = view.polledAtMs ?? clock();
        metrics.observePoll((clock() - started) / 1000, "success", "");
        metrics.setLastSuccess(lastMs);
        metrics.setInventorySize(view.hosts.size, view.vms.size);
        return view;
      } catch (err) {
        metrics.observePoll((clock() - started) / 1000, "failure", (err as { kind?: string }).kind ?? "other");
        throw err;
      }
    },
    async close() {
      await automation.logout().catch(() => undefined);
      http.close();
      cache.close();
    },
  };
}
