import { z } from "zod";

/**
 * The scenario file (YAML) of `hvx simulate`: the hardware, the node VMs, the
 * non-Kubernetes VMs, the workloads and the events. Every formula that turns these
 * numbers into demand is in docs/simulation.md.
 */
const nonNegative = z.number().min(0);
const positive = z.number().positive();
const count = z.number().int().min(0);

/** A seeded usage series: diurnal wave x noise, with optional bursts to a peak. */
const burstSchema = z
  .object({
    /** Expected burst starts per hour while not bursting. */
    perHour: nonNegative,
    minutes: positive,
    /** Usage while bursting (same unit as `mean`). */
    peak: nonNegative,
    /** All replicas of the workload burst together (one burst state per workload). */
    correlated: z.boolean().default(false),
  })
  .strict();

const usageSchema = z
  .object({
    mean: nonNegative,
    /** Relative amplitude of the daily cosine wave, 0..1. */
    diurnalAmplitude: z.number().min(0).max(1).default(0),
    /** Hour of day (0..24) at which the wave peaks. */
    diurnalPeakHour: z.number().min(0).max(24).default(14),
    /** Coefficient of variation of the per-step noise. */
    noiseCv: z.number().min(0).max(1).default(0),
    burst: burstSchema.optional(),
  })
  .strict();

/**
 * Trace files in the Grid Workloads Archive's GWA-T-12 per-VM format, one file per VM,
 * in `dir` (relative to the scenario file); `startHour` hours into each file aligns with
 * the simulation's start (docs/simulation.md section 3).
 */
const traceSchema = z
  .object({
    dir: z.string().min(1),
    startHour: nonNegative.default(0),
  })
  .strict();

/** A workload's CPU from traces: a replica's millicores = CPU usage [%] / 100 x traceScaleMilli. */
const tracedCpuSchema = z
  .object({
    trace: traceSchema,
    traceScaleMilli: positive,
  })
  .strict();

const memoryUsageSchema = z
  .object({
    meanMiB: nonNegative,
    diurnalAmplitude: z.number().min(0).max(1).default(0),
    noiseCv: z.number().min(0).max(1).default(0),
    /** Extra MiB while the CPU series is bursting. */
    burstMiB: nonNegative.default(0),
  })
  .strict();

const workloadSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "must be a DNS label"),
    replicas: z.number().int().min(1),
    priority: z.number().int().default(0),
    /** The pods' labels (e.g. `hvx.io/workload-class: online`). */
    labels: z.record(z.string()).default({}),
    cpuRequestMilli: nonNegative,
    cpuLimitMilli: positive,
    memoryRequestMiB: nonNegative,
    memoryLimitMiB: positive,
    /** CPU usage in millicores: the seeded formula, or trace files. */
    cpu: z.union([usageSchema, tracedCpuSchema]),
    memory: memoryUsageSchema,
    arrival: z
      .object({
        startMinute: nonNegative.default(0),
        spreadMinutes: nonNegative.default(0),
        /** Replicas arrive in a burst at this rate from `startMinute` (replaces `spreadMinutes`). */
        ratePerSecond: positive.optional(),
      })
      .strict()
      .default({}),
    /** Pods finish this long after they start running (batch work); absent: they run to the end. */
    lifetimeMinutes: positive.optional(),
    /** A fresh batch of `replicas` pods arrives this often. */
    repeatEveryMinutes: positive.optional(),
  })
  .strict()
  .refine((w) => w.cpuRequestMilli <= w.cpuLimitMilli && w.memoryRequestMiB <= w.memoryLimitMiB, {
    message: "requests must not exceed limits",
  });

/**
 * ESXi CPU allocation of a VM: shares (a level, or a custom number for the whole VM),
 * reservation and limit in MHz. vSphere's defaults: Normal shares (1000 per vCPU), no
 * reservation, no limit (SharesInfo.Level in the vSphere API).
 */
const cpuAllocationSchema = z
  .object({
    shares: z.union([z.enum(["low", "normal", "high"]), positive]).default("normal"),
    reservationMhz: nonNegative.default(0),
    limitMhz: positive.optional(),
  })
  .strict()
  .default({});

const noisyVmSchema = z
  .object({
    /** Host indices (0-based); absent: every host. */
    hosts: z.array(count).optional(),
    perHost: z.number().int().min(1).default(1),
    vcpus: z.number().int().min(1),
    memoryGiB: positive,
    /** CPU usage in percent of the VM's vCPUs (absent when `trace` gives it). */
    cpu: usageSchema.optional(),
    /** Memory the guest touches, percent of its configured memory (a trace replaces it). */
    memoryPercent: z.number().min(0).max(100).default(80),
    /** CPU and memory usage from trace files instead of the formula. */
    trace: traceSchema.optional(),
    cpuAllocation: cpuAllocationSchema,
  })
  .strict()
  .refine((n) => (n.cpu === undefined) !== (n.trace === undefined), { message: "give exactly one of cpu and trace" });

export const drsSchema = z
  .object({
    enabled: z.boolean().default(false),
    /**
     * `load-stddev`: vSphere 6.x, host load standard deviation (VMware KB 1007485); `vm-score`:
     * a vSphere 7-style model that acts when a VM's own ready time crosses `vmReadyPercent`
     * (docs/simulation.md section 11: VMware does not publish the VM DRS score's formula).
     */
    model: z.enum(["load-stddev", "vm-score"]).default("load-stddev"),
    /** Minutes between passes; default 5 for `load-stddev` (vSphere 6.x), 1 for `vm-score` (vSphere 7). */
    intervalMinutes: z.number().int().min(1).max(60).optional(),
    /** 1 (conservative: mandatory moves only) .. 5 (aggressive); vSphere's default 3. */
    migrationThreshold: z.number().int().min(1).max(5).default(3),
    /** vMotions per source host per pass: vSphere's concurrent vMotion limit per host on 10 GbE. */
    maxMovesPerHostPerPass: z.number().int().min(1).default(8),
    /** A move is considered only if it lowers the host load standard deviation by at least this (MinGoodness; 0: off). */
    minGoodness: z.number().min(0).max(1).default(0.001),
    /** The cost-benefit filter: a move's benefit over the pass interval must exceed its vMotion's cost. */
    costBenefit: z.boolean().default(true),
    /** vMotion copy rate, MiB/s: a 10 GbE link's line rate (10^10 / 8 / 2^20 = 1192). */
    vmotionMiBPerSecond: positive.default(1192),
    /** `vm-score`: a VM whose ready per vCPU, averaged over the interval, reaches this is unhappy. */
    vmReadyPercent: positive.max(100).default(5),
  })
  .strict();

/** The pass interval of a DRS model when the scenario does not set one. */
export function drsIntervalMinutes(d: DrsSettings): number {
  return d.intervalMinutes ?? (d.model === "vm-score" ? 1 : 5);
}

export const scenarioSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(""),
    durationHours: positive.max(24 * 14),
    /** vCenter's real-time interval; the model steps at this size. */
    stepSeconds: z.literal(20).default(20),
    pollIntervalSeconds: z.number().int().min(20).max(300).default(20),
    /** Simulated wall clock of step 0 (samples are stamped from it). */
    startTime: z.string().datetime().default("2026-11-30T00:00:00Z"),
    hosts: z
      .object({
        count: z.number().int().min(1),
        cores: z.number().int().min(1),
        mhzPerCore: positive,
        memoryGiB: positive,
        /**
         * NUMA nodes per host (the `queueing` physics splits the cores evenly among them). Default
         * 2: a two-socket server, one NUMA node per socket (docs/simulation.md section 4b).
         */
        numaNodes: z.number().int().min(1).max(16).default(2),
      })
      .strict()
      .refine((h) => h.numaNodes <= h.cores, { message: "numaNodes must be at most cores", path: ["numaNodes"] }),
    nodeVms: z
      .object({
        perHost: z.number().int().min(1),
        vcpus: z.number().int().min(1),
        memoryGiB: positive,
        reservationGiB: nonNegative.default(0),
        guestOsMiB: nonNegative.default(1024),
        guestCpuOverheadMilli: nonNegative.default(150),
        kubeReservedCpuMilli: nonNegative.default(100),
        kubeReservedMemoryMiB: nonNegative.default(1024),
        evictionHardMiB: nonNegative.default(100),
        cpuAllocation: cpuAllocationSchema,
      })
      .strict(),
    noisyVms: z.array(noisyVmSchema).default([]),
    oversell: z
      .object({ cpuRatio: z.number().min(1).default(1), memoryRatio: z.number().min(1).default(1) })
      .strict()
      .default({}),
    workloads: z.array(workloadSchema).min(1),
    maintenance: z.array(z.object({ host: count, startMinute: nonNegative, durationMinutes: positive }).strict()).default([]),
    /**
     * A pod evicted by hvx's rebalancer (strategy `hvx+rebalance`) is back in the scheduling
     * queue this long after (its controller recreates it).
     */
    restartSeconds: nonNegative.max(3600).default(30),
    /**
     * What the `vm-load-aware` (Trimaran) strategy is fed. Defaults: load-watcher on
     * metrics-server (docs/simulation.md section 7): usage over one 20 s sample, 60 s old.
     */
    vmLoadAware: z
      .object({
        /** Age of the end of the usage window when the plugin reads it, s (rounded up to whole steps). */
        metricsAgeSeconds: z.number().int().min(0).max(3600).default(60),
        /** The usage is the mean over this window, s (rounded up to whole steps; Prometheus provider: 900). */
        metricsWindowSeconds: z.number().int().min(1).max(3600).default(20),
        /** NodeResourcesBalancedAllocation in the profile (Trimaran's sample configuration disables it). */
        balancedAllocation: z.boolean().default(false),
      })
      .strict()
      .default({}),
    /**
     * vSphere DRS load balancing (docs/simulation.md section 11): the host load standard
     * deviation model of vSphere 6.x (VMware KB 1007485). `hvx simulate --drs on|off|both`
     * overrides `enabled`.
     */
    drs: drsSchema.default({}),
    /**
     * Seconds between the scheduler's binding and the pod's appearance in hvx's cluster view
     * (API server write, watch event, informer); kube-scheduler's own cache sees it at once.
     */
    bindLatencySeconds: z.number().min(0).max(60).default(2),
  })
  .strict()
  .superRefine((s, ctx) => {
    s.maintenance.forEach((m, i) => {
      if (m.host >= s.hosts.count) ctx.addIssue({ code: "custom", path: ["maintenance", i, "host"], message: `no host ${m.host}` });
    });
    s.noisyVms.forEach((n, i) =>
      (n.hosts ?? []).forEach((h, j) => {
        if (h >= s.hosts.count) ctx.addIssue({ code: "custom", path: ["noisyVms", i, "hosts", j], message: `no host ${h}` });
      }),
    );
  });

export type Scenario = z.infer<typeof scenarioSchema>;
export type Workload = Scenario["workloads"][number];
export type UsageSpec = z.infer<typeof usageSchema>;
export type TracedCpuSpec = z.infer<typeof tracedCpuSchema>;
export type TraceSpec = z.infer<typeof traceSchema>;
export type DrsSettings = z.infer<typeof drsSchema>;

/** A workload's CPU spec read from trace files (not the seeded formula). */
export function isTracedCpu(cpu: UsageSpec | TracedCpuSpec): cpu is TracedCpuSpec {
  return "trace" in cpu;
}
export type CpuAllocation = z.infer<typeof cpuAllocationSchema>;

/** CPU shares per vCPU of each level (vSphere API SharesInfo.Level). */
export const CPU_SHARES_PER_VCPU = { low: 500, normal: 1000, high: 2000 } as const;

/** A VM's CPU shares: level x vCPUs, or the custom number as given. */
export function cpuSharesOf(allocation: CpuAllocation, vcpus: number): number {
  return typeof allocation.shares === "number" ? allocation.shares : CPU_SHARES_PER_VCPU[allocation.shares] * vcpus;
}
