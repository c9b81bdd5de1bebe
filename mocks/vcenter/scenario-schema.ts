import { z } from "zod";

/**
 * Scenario file for the mock vCenter (format documented in mocks/vcenter/README.md).
 * Metric values are in friendly units (percent, MiB, KB/s); the mock converts them to
 * vCenter's units when it answers QueryPerf.
 *
 * A numeric series is a constant, a step list (value holds until the next step) or a
 * `{ ramp: [...] }` list (linear between points, held flat outside them). `atSeconds`
 * counts from the mock's start (its clock at `startMockVcenter`).
 */
const point = z.object({ atSeconds: z.number().min(0), value: z.number() }).strict();
const sortedPoints = z
  .array(point)
  .min(1)
  .refine((ps) => ps.every((p, i) => i === 0 || p.atSeconds > (ps[i - 1]?.atSeconds ?? -1)), {
    message: "atSeconds must be strictly increasing",
  });
export const NumberSeriesSchema = z.union([z.number(), sortedPoints, z.object({ ramp: sortedPoints }).strict()]);
export type NumberSeries = z.infer<typeof NumberSeriesSchema>;

/** Host free-memory states in mem.state.latest order: high=0, clear=1, soft=2, hard=3, low=4. */
export const MEM_STATES = ["high", "clear", "soft", "hard", "low"] as const;
export type MemStateName = (typeof MEM_STATES)[number];
const memStatePoint = z.object({ atSeconds: z.number().min(0), value: z.enum(MEM_STATES) }).strict();
export const MemStateSeriesSchema = z.union([z.enum(MEM_STATES), z.array(memStatePoint).min(1)]);
export type MemStateSeries = z.infer<typeof MemStateSeriesSchema>;

const nonNeg = NumberSeriesSchema;

export const HostMetricsSchema = z
  .object({
    cpuUsagePercent: nonNeg.default(30),
    memUsagePercent: nonNeg.default(40),
    swapInKBps: nonNeg.default(0),
    swapOutKBps: nonNeg.default(0),
    memState: MemStateSeriesSchema.default("high"),
    /** Host balloon total; absent = sum over its VMs. */
    balloonMiB: nonNeg.optional(),
    /** Host swapped total; absent = sum over its VMs. */
    swappedMiB: nonNeg.optional(),
  })
  .strict()
  .default({});
export type HostMetricsSpec = z.infer<typeof HostMetricsSchema>;
export const HOST_METRIC_NAMES = Object.keys(HostMetricsSchema.removeDefault().shape) as Array<keyof HostMetricsSpec>;

export const VmMetricsSchema = z
  .object({
    /** CPU ready per vCPU, percent of the 20 s sample. */
    readyPercent: nonNeg.default(1),
    /** CPU co-stop per vCPU, percent of the 20 s sample; absent = 5 % of the ready time. */
    costopPercent: nonNeg.optional(),
    balloonMiB: nonNeg.default(0),
    swappedMiB: nonNeg.default(0),
    cpuUsagePercent: nonNeg.default(25),
  })
  .strict()
  .default({});
export type VmMetricsSpec = z.infer<typeof VmMetricsSchema>;
export const VM_METRIC_NAMES = Object.keys(VmMetricsSchema.removeDefault().shape) as Array<keyof VmMetricsSpec>;

const moId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}\\d+$`), `must look like ${prefix}<number>`);
const uuid = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "must be a UUID");

export const CONNECTION_STATES = ["CONNECTED", "DISCONNECTED", "NOT_RESPONDING"] as const;
export const VM_POWER_STATES = ["POWERED_ON", "POWERED_OFF", "SUSPENDED"] as const;

export const ClusterSchema = z
  .object({
    id: moId("domain-c"),
    name: z.string().min(1),
    haEnabled: z.boolean().default(true),
    drsEnabled: z.boolean().default(true),
  })
  .strict();

export const HostSchema = z
  .object({
    id: moId("host-"),
    name: z.string().min(1),
    /** Cluster id (`domain-c8`); absent = standalone host. */
    cluster: z.string().optional(),
    cpuCores: z.number().int().positive(),
    cpuMhz: z.number().int().positive(),
    memoryMiB: z.number().int().positive(),
    connectionState: z.enum(CONNECTION_STATES).default("CONNECTED"),
    inMaintenance: z.boolean().default(false),
    metrics: HostMetricsSchema,
  })
  .strict();
export type HostSpec = z.infer<typeof HostSchema>;

export const VmSchema = z
  .object({
    id: moId("vm-"),
    name: z.string().min(1),
    biosUuid: uuid,
    instanceUuid: uuid.optional(),
    vcpus: z.number().int().positive(),
    memoryMiB: z.number().int().positive(),
    powerState: z.enum(VM_POWER_STATES).default("POWERED_ON"),
    host: moId("host-"),
    guestOS: z.string().default("UBUNTU_64"),
    /** `summary.config.memoryReservation` (MB) and `cpuReservation` (MHz); 0 = none. */
    memoryReservationMiB: z.number().int().min(0).default(0),
    cpuReservationMhz: z.number().int().min(0).default(0),
    metrics: VmMetricsSchema,
  })
  .strict();
export type VmSpec = z.infer<typeof VmSchema>;

export const FaultsSchema = z
  .object({
    /** Added to every response. */
    latencyMs: z.number().min(0).default(0),
    /** Share of requests (0..1) answered with `errorStatus` and the API's error body. */
    errorRate: z.number().min(0).max(1).default(0),
    errorStatus: z.number().int().min(500).max(599).default(503),
    /** When set, every request is answered with this 5xx status. */
    fixedStatus: z.number().int().min(500).max(599).nullable().default(null),
    /** Share of successful responses (0..1) whose body is cut in half (invalid JSON). */
    malformedRate: z.number().min(0).max(1).default(0),
    /** Sessions expire this long after the last call (vCenter default 30 min). */
    sessionIdleSeconds: z.number().positive().default(1800),
    /** When set, sessions also expire this long after login, however busy. */
    sessionLifetimeSeconds: z.number().positive().nullable().default(null),
    /** HTTP status of a VI/JSON NotAuthenticated fault (body is the fault either way). */
    viNotAuthenticatedStatus: z.union([z.literal(401), z.literal(500)]).default(500),
    /** Seed of the fault dice, so error and malformed sequences repeat. */
    seed: z.number().int().default(1),
    /**
     * The mock's clock runs this many seconds ahead of its injected clock (negative: behind).
     * Sample timestamps, CurrentTime, the HTTP Date header and session expiry follow it.
     */
    clockOffsetSeconds: z.number().default(0),
    /**
     * Per-host failures, by host id: `summary` (its HostSystem summary answers a SystemError),
     * `vm_list` (`GET /api/vcenter/vm?hosts=<it>` answers 500), `perf` (a QueryPerf naming it
     * or one of its VMs answers a SystemError).
     */
    hostFaults: z.record(z.string(), z.enum(["summary", "vm_list", "perf"])).default({}),
    /**
     * Hosts whose own counters have no data, by host id, as vCenter answers then: `omitted` (the
     * host's PerfEntityMetric carries its sample times but no series) or `minus_one` (every value
     * -1, vCenter's "no data"). Its VMs' counters are served as usual.
     */
    hostCountersMissing: z.record(z.string(), z.enum(["omitted", "minus_one"])).default({}),
  })
  .strict()
  .default({});
export type FaultsSpec = z.infer<typeof FaultsSchema>;

/** One `PerfInterval` (PerformanceManager `historicalInterval`): how vCenter rolls up and keeps statistics. */
export const PerfIntervalSchema = z
  .object({
    key: z.number().int().min(1),
    /** Seconds per sample: the `intervalId` a QueryPerf names. */
    samplingPeriod: z.number().int().min(1),
    name: z.string().min(1),
    /** Seconds of samples kept. */
    length: z.number().int().min(1),
    /** Statistics level 1..4: counters above it are not collected for this interval. */
    level: z.number().int().min(1).max(4),
    enabled: z.boolean(),
  })
  .strict();
export type PerfIntervalSpec = z.infer<typeof PerfIntervalSchema>;

/** vCenter's four default historical intervals (statistics level 1). */
export const DEFAULT_HISTORICAL_INTERVALS: readonly PerfIntervalSpec[] = [
  { key: 1, samplingPeriod: 300, name: "Past day", length: 86_400, level: 1, enabled: true },
  { key: 2, samplingPeriod: 1800, name: "Past week", length: 604_800, level: 1, enabled: true },
  { key: 3, samplingPeriod: 7200, name: "Past month", length: 2_592_000, level: 1, enabled: true },
  { key: 4, samplingPeriod: 86_400, name: "Past year", length: 31_536_000, level: 1, enabled: true },
];

export const ScenarioSchema = z
  .object({
    credentials: z
      .object({
        username: z.string().min(1).default("administrator@vsphere.local"),
        password: z.string().min(1).default("hvx-demo"),
      })
      .strict()
      .default({}),
    /** Added to every counter key, so keys differ from any real vCenter's table. */
    counterKeyOffset: z.number().int().min(0).max(1_000_000).default(7000),
    /**
     * mem.state.latest encoding. `five` (ESXi 6+): high 0, clear 1, soft 2, hard 3, low 4.
     * `four` (older docs): high 0, soft 1, hard 2, low 3, and clear reads as high.
     */
    memStateEncoding: z.enum(["five", "four"]).default("five"),
    /** VI/JSON releases served under `/sdk/vim25/{release}`; any other gets 404 (a vCenter 8.0.1 serves 8.0.1.0). */
    viJsonReleases: z
      .array(z.string().regex(/^\d+(\.\d+){3}$/, "must look like 8.0.1.0"))
      .min(1)
      .default(["8.0.1.0"]),
    /**
     * vCenter advanced settings served by `OptionManager/VpxSettings/QueryOptions`, e.g.
     * `config.vpxd.stats.maxQueryMetrics: 64` (which also lowers the QueryPerf limit; <= 0
     * lifts it). Numbers are served as `int`, text as `string`.
     */
    advancedSettings: z.record(z.string().min(1), z.union([z.number().int(), z.string()])).default({}),
    /**
     * `PerformanceManager.historicalInterval`; QueryPerf serves these intervals' samples from
     * the scenario series (before the mock's start: the series' first value). `[]`: a vCenter
     * that keeps no history (QueryPerf then refuses any interval but 20).
     */
    historicalIntervals: z.array(PerfIntervalSchema).default(() => DEFAULT_HISTORICAL_INTERVALS.map((i) => ({ ...i }))),
    faults: FaultsSchema,
    clusters: z.array(ClusterSchema).default([]),
    hosts: z.array(HostSchema).default([]),
    vms: z.array(VmSchema).default([]),
  })
  .strict()
  .superRefine((s, ctx) => {
    const dup = (ids: string[], where: string) => {
      const seen = new Set<string>();
      ids.forEach((id, i) => {
        if (seen.has(id)) ctx.addIssue({ code: "custom", path: [where, i, "id"], message: `duplicate id ${id}` });
        seen.add(id);
      });
      return seen;
    };
    const clusterIds = dup(
      s.clusters.map((c) => c.id),
      "clusters",
    );
    const hostIds = dup(
      s.hosts.map((h) => h.id),
      "hosts",
    );
    dup(
      s.vms.map((v) => v.id),
      "vms",
    );
    s.hosts.forEach((h, i) => {
      if (h.cluster !== undefined && !clusterIds.has(h.cluster))
        ctx.addIssue({ code: "custom", path: ["hosts", i, "cluster"], message: `unknown cluster ${h.cluster}` });
    });
    s.vms.forEach((v, i) => {
      if (!hostIds.has(v.host)) ctx.addIssue({ code: "custom", path: ["vms", i, "host"], message: `unknown host ${v.host}` });
    });
  });

/** A validated scenario, defaults applied. */
export type Scenario = z.infer<typeof ScenarioSchema>;
/** A scenario as written in a file (defaults not yet applied). */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
