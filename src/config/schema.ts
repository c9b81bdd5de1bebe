import { z } from "zod";

/**
 * The whole configuration file. Every key is optional; defaults are the documented
 * production defaults (README "Configuration"). Unknown keys are rejected so that a
 * typo (`thresholds.cpuReadyPercnt`) stops start-up instead of being silently ignored.
 */
const percent = z.number().min(0).max(100);
const positive = z.number().positive();
const quantity = z.string().min(1);

const serverSchema = z
  .object({
    port: z.number().int().min(1).max(65535).default(8888),
    bodyLimitMB: positive.default(100),
  })
  .strict()
  .default({});

const vcenterSchema = z
  .object({
    /** https://vcenter.example.com. Absent: the bundled mock vCenter with the demo scenario. */
    url: z.string().url().optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    caFile: z.string().optional(),
    insecureSkipTLSVerify: z.boolean().default(false),
    viJsonRelease: z.string().regex(/^\d+(\.\d+)*$/, "must look like 8.0.1.0").default("8.0.1.0"),
    pollIntervalSeconds: positive.default(20),
    requestTimeoutSeconds: positive.default(10),
    maxConcurrency: z.number().int().min(1).max(256).default(8),
    clusters: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .default({});

/** Issue 11: where host and VM contention metrics come from (README "Sources"). */
const metricsSchema = z
  .object({ source: z.enum(["vcenter", "prometheus"]).default("vcenter") })
  .strict()
  .default({});

const prometheusSchema = z
  .object({
    /** Prometheus-compatible HTTP API (Prometheus, Thanos Query, Mimir, VictoriaMetrics), e.g. http://prometheus:9090. */
    url: z.string().url().regex(/^https?:\/\//, "must start with http:// or https://").optional(),
    bearerTokenFile: z.string().optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    caFile: z.string().optional(),
    insecureSkipTLSVerify: z.boolean().default(false),
    flavour: z.enum(["telegraf", "vmware_exporter"]).default("telegraf"),
    /** Extra label matchers added to every query, e.g. `vcenter="vc01.example.com:443"`. */
    selector: z.string().default(""),
    queryIntervalSeconds: positive.default(20),
    requestTimeoutSeconds: positive.default(10),
  })
  .strict()
  .default({});

export const MAPPING_RULES = ["providerID", "systemUUID", "name"] as const;
export type MappingRule = (typeof MAPPING_RULES)[number];

const thresholdsSchema = z
  .object({
    cpuReadyPercent: percent.default(10),
    cpuReadyWarnPercent: percent.default(5),
    hostCpuUsagePercent: percent.default(90),
    hostMemoryUsagePercent: percent.default(95),
    balloonPercent: percent.default(1),
    swapInKBps: z.number().min(0).default(1),
    maxMetricAgeSeconds: positive.default(120),
  })
  .strict()
  .default({})
  .refine((t) => t.cpuReadyWarnPercent <= t.cpuReadyPercent, {
    message: "cpuReadyWarnPercent must not exceed cpuReadyPercent",
    path: ["cpuReadyWarnPercent"],
  });

const exemptSchema = z
  .object({
    namespaces: z.array(z.string()).default(["kube-system"]),
    priorityClassNames: z.array(z.string()).default(["system-node-critical", "system-cluster-critical"]),
  })
  .strict()
  .default({});

const scoringSchema = z
  .object({
    unknownScore: z.number().int().min(0).max(10).default(5),
    spreadPenaltyPerReplica: z.number().min(0).max(10).default(2),
    maxSpreadPenalty: z.number().min(0).max(10).default(6),
  })
  .strict()
  .default({});

const ratio = z.number().min(1);
const admissionSchema = z
  .object({
    enabled: z.boolean().default(true),
    port: z.number().int().min(1).max(65535).default(8443),
    tls: z.object({ certFile: z.string().min(1), keyFile: z.string().min(1) }).strict().optional(),
    cpuRatio: ratio.default(2.0),
    memoryRatio: ratio.default(1.0),
    namespaces: z
      .record(z.object({ cpuRatio: ratio.optional(), memoryRatio: ratio.optional() }).strict())
      .default({}),
    excludeNamespaces: z.array(z.string()).default(["kube-system"]),
    preserveGuaranteed: z.boolean().default(true),
    minCpu: quantity.default("10m"),
    minMemory: quantity.default("16Mi"),
    maxStackedCpuOvercommit: ratio.default(4.0),
    maxStackedMemoryOvercommit: ratio.default(1.5),
    hotHostBrakePercent: percent.default(25),
  })
  .strict()
  .default({});

const kubernetesSchema = z
  .object({
    enabled: z.union([z.literal("auto"), z.boolean()]).default("auto"),
    /** Path to a kubeconfig; else KUBECONFIG, else in-cluster. */
    kubeconfig: z.string().optional(),
    resyncSeconds: positive.default(300),
  })
  .strict()
  .default({});

const burstGuardSchema = z
  .object({
    enabled: z.boolean().default(true),
    settleSeconds: positive.default(60),
    defaultCpu: quantity.default("100m"),
    defaultMemory: quantity.default("128Mi"),
  })
  .strict()
  .default({});

const limitsSchema = z
  .object({
    maxCpuOvercommit: positive.default(2.0),
    maxMemoryOvercommit: positive.default(1.2),
    maxStackedCpuOvercommit: positive.default(4.0),
  })
  .strict()
  .default({});

const nodeLabelsSchema = z
  .object({
    enabled: z.boolean().default(false),
    leaseDurationSeconds: positive.default(15),
    /** How often the leader compares and patches node labels and annotations. */
    intervalSeconds: positive.default(10),
  })
  .strict()
  .default({});

export const configSchema = z
  .object({
    server: serverSchema,
    vcenter: vcenterSchema,
    metrics: metricsSchema,
    prometheus: prometheusSchema,
    nodeMapping: z
      .array(z.enum(MAPPING_RULES))
      .min(1)
      .default([...MAPPING_RULES])
      .refine((rules) => new Set(rules).size === rules.length, { message: "lists a rule twice" }),
    thresholds: thresholdsSchema,
    staleMetrics: z.enum(["pass", "reject"]).default("pass"),
    exempt: exemptSchema,
    scoring: scoringSchema,
    admission: admissionSchema,
    kubernetes: kubernetesSchema,
    burstGuard: burstGuardSchema,
    limits: limitsSchema,
    nodeLabels: nodeLabelsSchema,
    log: z
      .object({ level: z.enum(["fatal", "error", "warn", "info", "debug", "trace"]).default("info") })
      .strict()
      .default({}),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type Thresholds = Config["thresholds"];
