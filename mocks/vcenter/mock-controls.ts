import { mulberry32 } from "../../src/random/prng.js";
import type { MockState, MockVcenterStats } from "./mock-state.js";
import {
  FaultsSchema,
  HostMetricsSchema,
  VmMetricsSchema,
  type FaultsSpec,
  type HostMetricsSpec,
  type HostSpec,
  type MemStateSeries,
  type NumberSeries,
  type VmMetricsSpec,
} from "./scenario-schema.js";

/** In-process test controls (never reachable over HTTP). Unknown ids or bad values throw. */
export interface MockVcenterControls {
  /** Every session of both APIs becomes unknown: next call gets 401 / NotAuthenticated. */
  expireAllSessions(): void;
  /** vMotion: the VM now lists under `?hosts=hostId` and counts in that host's totals. */
  moveVm(vmId: string, hostId: string): void;
  setFaults(partial: Partial<FaultsSpec>): void;
  setHostMetric(hostId: string, name: keyof HostMetricsSpec, value: NumberSeries | MemStateSeries): void;
  setVmMetric(vmId: string, name: keyof VmMetricsSpec, value: NumberSeries): void;
  setHostState(hostId: string, state: { connectionState?: HostSpec["connectionState"]; inMaintenance?: boolean }): void;
  /** An administrator removes the host (and the VMs on it) from vCenter's inventory. */
  removeHost(hostId: string): void;
  /**
   * Sets (or, with undefined, removes) a vCenter advanced setting, as an administrator would,
   * e.g. `setAdvancedSetting("config.vpxd.stats.maxQueryMetrics", 64)` lowers the QueryPerf limit.
   */
  setAdvancedSetting(key: string, value: number | string | undefined): void;
  /** A copy of the counters so far. */
  stats(): MockVcenterStats;
}

export function createControls(state: MockState): MockVcenterControls {
  const host = (id: string) => {
    const h = state.hosts.get(id);
    if (h === undefined) throw new Error(`mock vCenter: unknown host ${id}`);
    return h;
  };
  const vm = (id: string) => {
    const v = state.vms.get(id);
    if (v === undefined) throw new Error(`mock vCenter: unknown vm ${id}`);
    return v;
  };
  return {
    expireAllSessions: () => state.sessions.clear(),
    moveVm: (vmId, hostId) => {
      host(hostId);
      vm(vmId).host = hostId;
    },
    setFaults: (partial) => {
      const next = FaultsSchema.removeDefault().parse({ ...state.faults, ...partial });
      if (next.seed !== state.faults.seed) state.random = mulberry32(next.seed);
      state.faults = next;
    },
    setHostMetric: (hostId, name, value) => {
      const h = host(hostId);
      const field = HostMetricsSchema.removeDefault().shape[name];
      if (field === undefined) throw new Error(`mock vCenter: unknown host metric ${String(name)}`);
      h.metrics = { ...h.metrics, [name]: field.parse(value) };
    },
    setVmMetric: (vmId, name, value) => {
      const v = vm(vmId);
      const field = VmMetricsSchema.removeDefault().shape[name];
      if (field === undefined) throw new Error(`mock vCenter: unknown vm metric ${String(name)}`);
      v.metrics = { ...v.metrics, [name]: field.parse(value) };
    },
    setHostState: (hostId, s) => {
      const h = host(hostId);
      if (s.connectionState !== undefined) h.connectionState = s.connectionState;
      if (s.inMaintenance !== undefined) h.inMaintenance = s.inMaintenance;
    },
    removeHost: (hostId) => {
      host(hostId);
      state.hosts.delete(hostId);
      for (const v of [...state.vms.values()]) if (v.host === hostId) state.vms.delete(v.id);
    },
    setAdvancedSetting: (key, value) => {
      if (key === "") throw new Error("mock vCenter: empty setting key");
      if (value === undefined) delete state.scenario.advancedSettings[key];
      else if ((typeof value === "number" && Number.isInteger(value)) || typeof value === "string")
        state.scenario.advancedSettings[key] = value;
      else throw new Error(`mock vCenter: setting ${key} must be an integer or a string`);
    },
    stats: () => structuredClone(state.stats),
  };
}
