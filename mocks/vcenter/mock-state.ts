import { mulberry32 } from "../../src/random/prng.js";
import type { FaultsSpec, HostSpec, Scenario, VmSpec } from "./scenario-schema.js";

/** One login, as either API keeps it. */
export interface MockSession {
  readonly api: "automation" | "viJson" | "soap";
  readonly userName: string;
  readonly createdMs: number;
  lastAccessMs: number;
}

/** Counters the tests read through `controls.stats()`. */
export interface MockVcenterStats {
  logins: { automation: number; viJson: number; soap: number };
  /** Keyed by `METHOD /route/pattern`, e.g. `GET /api/vcenter/vm/:vm`. */
  requestsByRoute: Record<string, number>;
  queryPerfCalls: number;
  queryPerfCompositeCalls: number;
  /** Largest metric count (entities x metricIds) seen in one QueryPerf/QueryPerfComposite. */
  maxMetricsInOneQuery: number;
  /** Every counter a QueryPerf/QueryPerfComposite named in a `metricId`, by name (`cpu.ready.summation`), in first-asked order. */
  queriedCounters: string[];
  /** `GET /api/vcenter/vm/{vm}` calls per VM id. */
  vmDetailFetches: Record<string, number>;
  /** 401 responses plus VI/JSON NotAuthenticated/InvalidLogin faults. */
  unauthorizedServed: number;
  /** Sessions closed by `DELETE /api/session`, VI/JSON `Logout` and SOAP `Logout`. */
  logouts: { automation: number; viJson: number; soap: number };
}

/** The mock's mutable world: inventory (deep copies of the scenario), sessions, faults, stats. */
export interface MockState {
  readonly scenario: Scenario;
  /** The mock vCenter's own clock: the injected clock plus `faults.clockOffsetSeconds`. */
  readonly clock: () => number;
  /** Clock at start; scenario series count `atSeconds` from here. */
  readonly startMs: number;
  readonly hosts: Map<string, HostSpec>;
  readonly vms: Map<string, VmSpec>;
  readonly sessions: Map<string, MockSession>;
  faults: FaultsSpec;
  stats: MockVcenterStats;
  /** Fault dice (deterministic, seeded by faults.seed). */
  random: () => number;
}

export function emptyStats(): MockVcenterStats {
  return {
    logins: { automation: 0, viJson: 0, soap: 0 },
    requestsByRoute: {},
    queryPerfCalls: 0,
    queryPerfCompositeCalls: 0,
    maxMetricsInOneQuery: 0,
    queriedCounters: [],
    vmDetailFetches: {},
    unauthorizedServed: 0,
    logouts: { automation: 0, viJson: 0, soap: 0 },
  };
}

export function createMockState(scenario: Scenario, baseClock: () => number): MockState {
  const copy = structuredClone(scenario);
  const state: MockState = {
    scenario: copy,
    clock: () => baseClock() + state.faults.clockOffsetSeconds * 1000,
    startMs: baseClock() + copy.faults.clockOffsetSeconds * 1000,
    hosts: new Map(copy.hosts.map((h) => [h.id, h])),
    vms: new Map(copy.vms.map((v) => [v.id, v])),
    sessions: new Map(),
    faults: { ...copy.faults },
    stats: emptyStats(),
    random: mulberry32(copy.faults.seed),
  };
  return state;
}

export const MAX_QUERY_METRICS_SETTING = "config.vpxd.stats.maxQueryMetrics";
/** vpxd.stats.maxQueryMetrics when the setting is absent. */
export const DEFAULT_MAX_QUERY_METRICS = 256;

/** Metrics (entities x metricIds) one QueryPerf may ask for; Infinity when the setting lifts the limit (<= 0). */
export function maxQueryMetrics(state: MockState): number {
  const raw = state.scenario.advancedSettings[MAX_QUERY_METRICS_SETTING];
  if (raw === undefined) return DEFAULT_MAX_QUERY_METRICS;
  const n = typeof raw === "number" ? raw : Number.parseInt(raw, 10);
  if (!Number.isFinite(n)) return DEFAULT_MAX_QUERY_METRICS;
  return n <= 0 ? Number.POSITIVE_INFINITY : n;
}

/** VMs placed on a host, in scenario order. */
export function vmsOnHost(state: MockState, hostId: string): VmSpec[] {
  return [...state.vms.values()].filter((v) => v.host === hostId);
}
