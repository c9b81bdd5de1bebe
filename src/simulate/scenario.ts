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
    cpuRequestMilli: nonNegative,
    cpuLimitMilli: positive,
    memoryRequestMiB: nonNegative,
    memoryLimitMiB: positive,
    /** CPU usage in millicores. */
    cpu: usageSchema,
    memory: memoryUsageSchema,
    arrival: z.object({ startMinute: nonNegative.default(0), spreadMinutes: nonNegative.default(0) }).strict().default({}),
    /** Pods finish this long after they start running (batch work); absent: they run to the end. */
    lifetimeMinutes: positive.optional(),
    /** A fresh batch of `replicas` pods arrives this often. */
    repeatEveryMinutes: positive.optional(),
  })
  .strict()
  .refine((w) => w.cpuRequestMilli <= w.cpuLimitMilli && w.memoryRequestMiB <= w.memoryLimitMiB, {
    message: "requests must not exceed limits",
  });

const noisyVmSchema = z
  .object({
    /** Host indices (0-based); absent: every host. */
    hosts: z.array(count).optional(),
    perHost: z.number().int().min(1).default(1),
    vcpus: z.number().int().min(1),
    memoryGiB: positive,
    /** CPU usage in percent of the VM's vCPUs. */
    cpu: usageSchema,
    /** Memory the guest touches, percent of its configured memory. */
    memoryPercent: z.number().min(0).max(100).default(80),
  })
  .strict();

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
      .object({ count: z.number().int().min(1), cores: z.number().int().min(1), mhzPerCore: positive, memoryGiB: positive })
      .strict(),
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
      })
      .strict(),
    noisyVms: z.array(noisyVmSchema).default([]),
    oversell: z.object({ cpuRatio: z.number().min(1).default(1), memoryRatio: z.number().min(1).default(1) }).strict().default({}),
    workloads: z.array(workloadSchema).min(1),
    maintenance: z
      .array(z.object({ host: count, startMinute: nonNegative, durationMinutes: positive }).strict())
      .default([]),
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
