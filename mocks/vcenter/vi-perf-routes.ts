import type { Application, Response } from "express";
import { toPerfCounterInfoWire } from "./counter-catalogue.js";
import type { MockState } from "./mock-state.js";
import { hostQuickStats } from "./perf-values.js";
import { counted } from "./counted.js";
import { queryPerf, queryPerfComposite, type PerfReply } from "./vi-perf-query.js";
import { PERF_MANAGER_ID, VI_BASE, releaseOk, requireViSession } from "./vi-session-routes.js";
import { VI_FAULT_STATUS, managedObjectNotFound, moRef, sendJson, viFault } from "./wire-errors.js";
import type { HostSpec } from "./scenario-schema.js";

const CONNECTION_STATE_VI: Record<HostSpec["connectionState"], string> = {
  CONNECTED: "connected",
  DISCONNECTED: "disconnected",
  NOT_RESPONDING: "notResponding",
};

/** PerformanceManager perfCounter / QueryPerf / QueryPerfComposite and HostSystem summary. */
export function mountViPerfRoutes(app: Application, state: MockState): void {
  const perfMgr = (moId: unknown, res: Response): boolean => {
    if (moId === PERF_MANAGER_ID) return true;
    sendJson(res, VI_FAULT_STATUS, managedObjectNotFound("PerformanceManager", String(moId)));
    return false;
  };
  const perfObj = { type: "PerformanceManager", value: PERF_MANAGER_ID };

  counted(app, state, "get", `${VI_BASE}/PerformanceManager/:moId/perfCounter`, (req, res) => {
    if (!releaseOk(state, req, res) || requireViSession(state, req, res, perfObj) === undefined || !perfMgr(req.params["moId"], res))
      return;
    sendJson(res, 200, toPerfCounterInfoWire(state.scenario.counterKeyOffset, state.scenario.memStateEncoding));
  });

  // Property read of PerformanceManager.historicalInterval: the PerfInterval objects.
  counted(app, state, "get", `${VI_BASE}/PerformanceManager/:moId/historicalInterval`, (req, res) => {
    if (!releaseOk(state, req, res) || requireViSession(state, req, res, perfObj) === undefined || !perfMgr(req.params["moId"], res))
      return;
    sendJson(
      res,
      200,
      state.scenario.historicalIntervals.map((i) => ({ _typeName: "PerfInterval", ...i })),
    );
  });

  const send = (res: Response, r: PerfReply) => {
    state.stats.maxMetricsInOneQuery = Math.max(state.stats.maxMetricsInOneQuery, r.metrics);
    sendJson(res, r.status, r.body);
  };
  counted(app, state, "post", `${VI_BASE}/PerformanceManager/:moId/QueryPerf`, (req, res) => {
    if (!releaseOk(state, req, res) || requireViSession(state, req, res, perfObj) === undefined || !perfMgr(req.params["moId"], res))
      return;
    state.stats.queryPerfCalls += 1;
    if (namesFailingHost(state, req.body)) {
      sendJson(
        res,
        VI_FAULT_STATUS,
        viFault("SystemError", "A general system error occurred: injected host fault", { reason: "injected host fault" }),
      );
      return;
    }
    send(res, queryPerf(state, req.body));
  });
  counted(app, state, "post", `${VI_BASE}/PerformanceManager/:moId/QueryPerfComposite`, (req, res) => {
    if (!releaseOk(state, req, res) || requireViSession(state, req, res, perfObj) === undefined || !perfMgr(req.params["moId"], res))
      return;
    state.stats.queryPerfCompositeCalls += 1;
    send(res, queryPerfComposite(state, req.body));
  });

  counted(app, state, "get", `${VI_BASE}/HostSystem/:id/summary`, (req, res) => {
    const id = String(req.params["id"]);
    if (!releaseOk(state, req, res) || requireViSession(state, req, res, { type: "HostSystem", value: id }) === undefined) return;
    const h = state.hosts.get(id);
    if (h === undefined) {
      sendJson(res, VI_FAULT_STATUS, managedObjectNotFound("HostSystem", id));
      return;
    }
    if (state.faults.hostFaults[id] === "summary") {
      sendJson(
        res,
        VI_FAULT_STATUS,
        viFault("SystemError", "A general system error occurred: injected host fault", { reason: "injected host fault" }),
      );
      return;
    }
    sendJson(res, 200, toHostListSummaryWire(state, h));
  });
}

/** Whether a QueryPerf body names a host with a `perf` host fault, or a VM on one. */
export function namesFailingHost(state: MockState, body: unknown): boolean {
  const failing = Object.entries(state.faults.hostFaults)
    .filter(([, f]) => f === "perf")
    .map(([id]) => id);
  if (failing.length === 0) return false;
  const specs = (body as { querySpec?: unknown } | undefined)?.querySpec;
  if (!Array.isArray(specs)) return false;
  return specs.some((s: { entity?: { type?: unknown; value?: unknown } }) => {
    const value = String(s?.entity?.value ?? "");
    const hostId = s?.entity?.type === "VirtualMachine" ? state.vms.get(value)?.host : value;
    return hostId !== undefined && failing.includes(hostId);
  });
}

/** `HostListSummary` of a host; memorySize is bytes, quickStats are MHz and MiB. */
export function toHostListSummaryWire(state: MockState, h: HostSpec): object {
  const connected = h.connectionState === "CONNECTED";
  const quick = hostQuickStats(state, h);
  const uptimeS = Math.round((state.clock() - state.startMs) / 1000) + 30 * 86_400;
  return {
    _typeName: "HostListSummary",
    host: moRef("HostSystem", h.id),
    hardware: {
      _typeName: "HostHardwareSummary",
      vendor: "Dell Inc.",
      model: "PowerEdge R650",
      uuid: `4c4c4544-0000-1000-8000-${h.id.replace(/\D/g, "").padStart(12, "0")}`,
      memorySize: h.memoryMiB * 1024 * 1024,
      cpuModel: "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
      cpuMhz: h.cpuMhz,
      numCpuPkgs: 2,
      numCpuCores: h.cpuCores,
      numCpuThreads: h.cpuCores * 2,
      numNics: 4,
      numHBAs: 2,
    },
    runtime: {
      _typeName: "HostRuntimeInfo",
      connectionState: CONNECTION_STATE_VI[h.connectionState],
      powerState: connected ? "poweredOn" : "unknown",
      standbyMode: "none",
      inMaintenanceMode: h.inMaintenance,
      inQuarantineMode: false,
      bootTime: new Date(state.clock() - uptimeS * 1000).toISOString(),
    },
    config: {
      _typeName: "HostConfigSummary",
      name: h.name,
      port: 443,
      product: { _typeName: "AboutInfo", name: "VMware ESXi", version: "8.0.1", apiType: "HostAgent" },
      vmotionEnabled: true,
      faultToleranceEnabled: false,
    },
    quickStats: {
      _typeName: "HostListSummaryQuickStats",
      ...(connected ? { overallCpuUsage: quick.cpuMhz, overallMemoryUsage: quick.memMiB, uptime: uptimeS } : {}),
      distributedCpuFairness: 0,
      distributedMemoryFairness: 0,
    },
    overallStatus: connected ? "green" : "gray",
    rebootRequired: false,
    managementServerIp: "127.0.0.1",
  };
}
