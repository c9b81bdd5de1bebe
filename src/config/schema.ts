import { z } from "zod";
import type { ThresholdPolicy } from "../placement/policy.js";
import { cpuMilli, memoryBytes, QuantityError } from "../quantity/index.js";
import { checkPoolClusters, workloadClassesSchema } from "./workload-classes-schema.js";

/**
 * The whole configuration file. Every key is optional; defaults are the documented
 * production defaults (README "Configuration"). Unknown keys are rejected so that a
 * typo (`thresholds.cpuReadyPercnt`) stops start-up instead of being silently ignored.
 */
const finite = z.number().finite();
const percent = finite.min(0).max(100);
const positive = finite.positive();

/** Longest delay a Node.js timer takes (2^31 - 1 ms); beyond it setTimeout fires after 1 ms. */
export const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
/** A duration in seconds, finite and short enough for a timer (YAML `.inf` would otherwise make a 1 ms loop). */
export const seconds = positive.max(MAX_TIMER_SECONDS, `must be at most ${MAX_TIMER_SECONDS} seconds (about 24 days)`);
const secondsOrZero = finite.min(0).max(MAX_TIMER_SECONDS, `must be at most ${MAX_TIMER_SECONDS} seconds (about 24 days)`);

/**
 * A Kubernetes quantity, checked at load with hvx's own parser (src/quantity), so that a
 * typo (`10 m`) stops start-up instead of failing later on every request. The text is kept
 * (the consumers parse it again, exactly). A YAML number (`minCpu: 1`) is read as its text.
 */
function quantity(kind: "cpu" | "memory") {
  const toNumber = kind === "cpu" ? cpuMilli : memoryBytes;
  return z
    .union([z.string(), finite])
    .transform((v) => String(v))
    .superRefine((text, ctx) => {
      try {
        if (toNumber(text) < 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${JSON.stringify(text)} is negative` });
      } catch (err) {
        if (!(err instanceof QuantityError)) throw err;
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${JSON.stringify(text)} is not a ${kind} quantity: ${err.message}` });
      }
    });
}
const port = z.number().int().min(1).max(65535);
/** A listen address: an IPv4 or IPv6 literal (`0.0.0.0`, `::`, `10.0.0.5`, `127.0.0.1`); absent: every interface. */
const listenAddress = z.string().ip({ message: "must be an IPv4 or IPv6 address (e.g. 0.0.0.0, ::, 127.0.0.1)" }).optional();

const tlsFiles = { certFile: z.string().min(1), keyFile: z.string().min(1) };

const serverSchema = z
  .object({
    /** Extender verbs (/filter, /prioritize, ...) and /healthz, /readyz. */
    port: port.default(8888),
    /** Address of the extender port; absent: every interface (IPv6 and IPv4 where the host has both). */
    address: listenAddress,
    /**
     * Largest request body, MB. Names mode (nodeCacheCapable) for 5000 nodes needs well
     * under 1 MB; full-Node mode needs more: raise it together with the heap (README).
     */
    bodyLimitMB: positive.default(16),
    /** /metrics, /debug/*, /healthz, /readyz: for Prometheus and operators, not kube-scheduler. */
    adminPort: port.default(9090),
    /** Address of the admin port; absent: every interface. `127.0.0.1` keeps /metrics and /debug local (probes then fail). */
    adminAddress: listenAddress,
    /** HTTPS on the extender port; with clientCAFile, a client certificate signed by that CA is required. */
    tls: z
      .object({
        ...tlsFiles,
        clientCAFile: z.string().min(1).optional(),
        /** Issue 28: with clientCAFile, a client certificate's SAN DNS or URI name, or its CN, must be one of these. */
        allowedClientNames: z.array(z.string().min(1)).min(1).optional(),
      })
      .strict()
      .superRefine((t, ctx) => {
        if ((t.clientCAFile === undefined) === (t.allowedClientNames === undefined)) return;
        const message =
          t.clientCAFile === undefined
            ? "needs clientCAFile (names are checked on client certificates)"
            : "is required with clientCAFile: the names (SAN DNS/URI or CN) of the client certificates to accept, e.g. [hvx-scheduler]; " +
              "otherwise every certificate the CA signed passes, hvx's own serving certificate too";
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["allowedClientNames"], message });
      })
      .optional(),
    /** Issue 28: plain HTTP (no `tls`) on an address other than loopback is refused at start-up unless true. */
    allowPlaintext: z.boolean().default(false),
    /**
     * Issue 28: /debug/* and /ui on the admin port: `loopback` (port-forward, the demo's machine),
     * `delegated` (also a bearer token the API server allows on the path: TokenReview + SubjectAccessReview) or `open`.
     */
    debugAccess: z.enum(["loopback", "delegated", "open"]).default("loopback"),
    /** On SIGTERM: /readyz answers 503 for this long before the listeners close. */
    shutdownDrainSeconds: secondsOrZero.default(5),
    /** /readyz turns 200 after the first vCenter poll cycle ends, or after this long, whichever first. */
    readinessGraceSeconds: secondsOrZero.default(30),
  })
  .strict()
  .default({})
  .refine((s) => s.adminPort !== s.port, { message: "must differ from server.port", path: ["adminPort"] });

const vcenterSchema = z
  .object({
    /** https://vcenter.example.com. Absent: the bundled mock vCenter with the demo scenario. */
    url: z.string().url().optional(),
    username: z.string().optional(),
    password: z.string().optional(),
    caFile: z.string().optional(),
    insecureSkipTLSVerify: z.boolean().default(false),
    /** Issue 28: an http:// url (the password in clear) is refused at start-up unless true. */
    allowPlaintext: z.boolean().default(false),
    viJsonRelease: z
      .string()
      .regex(/^\d+(\.\d+)*$/, "must look like 8.0.1.0")
      .default("8.0.1.0"),
    /**
     * Issue 27: `auto` reads the vCenter's release list (/sdk/vimServiceVersions.xml) and uses the
     * Automation API + VI/JSON when it offers viJsonRelease (vCenter 8.0U1+), else vim25 over SOAP.
     */
    api: z.enum(["auto", "vijson", "soap"]).default("auto"),
    pollIntervalSeconds: seconds.default(20),
    requestTimeoutSeconds: seconds.default(10),
    maxConcurrency: z.number().int().min(1).max(256).default(8),
    clusters: z.array(z.string().min(1)).default([]),
    /** After vCenter refuses the credentials, no login before this many seconds (unless the credential files change). */
    authRetrySeconds: positive.default(300),
  })
  .strict();

/**
 * Issue 11 §2: one entry of `vcenters:` (several vCenters), the `vcenter:` block plus a
 * `name` (the `vcenter` metric label and the prefix of host and VM ids: `vc01/host-11`).
 */
export const vcenterEntrySchema = vcenterSchema.extend({
  name: z
    .string()
    .regex(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/, "must be 1-63 letters, digits, '-', '_' or '.', no '/'")
    .optional(),
});

/** Issue 11: where host and VM contention metrics come from (README "Sources"). */
const metricsSchema = z
  .object({ source: z.enum(["vcenter", "prometheus"]).default("vcenter") })
  .strict()
  .default({});

const prometheusSchema = z
  .object({
    /** Prometheus-compatible HTTP API (Prometheus, Thanos Query, Mimir, VictoriaMetrics), e.g. http://prometheus:9090. */
    url: z
      .string()
      .url()
      .regex(/^https?:\/\//, "must start with http:// or https://")
      .optional(),
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
    swapInKBps: finite.min(0).default(1),
    /** CPU co-stop % per vCPU on the host (cpu.costop.summation); unset: the co-stop rule is off. */
    cpuCostopPercent: percent.optional(),
    maxMetricAgeSeconds: seconds.default(120),
  })
  .strict()
  .default({})
  .refine((t) => t.cpuReadyWarnPercent <= t.cpuReadyPercent, {
    message: "cpuReadyWarnPercent must not exceed cpuReadyPercent",
    path: ["cpuReadyWarnPercent"],
  });

// Every threshold a metric rule declares (src/placement/rules/) needs its entry above: an
// optional one would otherwise pass unnoticed. The compiler names the missing key here.
type ThresholdsWithoutSchema = Exclude<keyof ThresholdPolicy, keyof z.output<typeof thresholdsSchema>>;
const _everyRuleThresholdInSchema: [ThresholdsWithoutSchema] extends [never] ? true : ThresholdsWithoutSchema = true;

const exemptSchema = z
  .object({
    namespaces: z.array(z.string()).default(["kube-system"]),
    priorityClassNames: z.array(z.string()).default(["system-node-critical", "system-cluster-critical"]),
    /** Namespaces (`*` wildcards) where `hvx.io/exempt: "true"` is honoured; `[]` turns the annotation off. */
    annotationNamespaces: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .default({});

const scoringSchema = z
  .object({
    unknownScore: z.number().int().min(0).max(10).default(5),
    spreadPenaltyPerReplica: finite.min(0).max(10).default(2),
    maxSpreadPenalty: finite.min(0).max(10).default(6),
  })
  .strict()
  .default({});

const ratio = finite.min(1);
const admissionSchema = z
  .object({
    enabled: z.boolean().default(true),
    port: port.default(8443),
    /** Address of the webhook port; absent: every interface. */
    address: listenAddress,
    tls: z.object(tlsFiles).strict().optional(),
    /** Largest AdmissionReview body, MB: the API server's own request limit (3 MB). */
    bodyLimitMB: positive.default(3),
    cpuRatio: ratio.default(2.0),
    memoryRatio: ratio.default(1.0),
    namespaces: z.record(z.object({ cpuRatio: ratio.optional(), memoryRatio: ratio.optional() }).strict()).default({}),
    excludeNamespaces: z.array(z.string()).default(["kube-system"]),
    preserveGuaranteed: z.boolean().default(true),
    minCpu: quantity("cpu").default("10m"),
    minMemory: quantity("memory").default("16Mi"),
    maxStackedCpuOvercommit: ratio.default(4.0),
    maxStackedMemoryOvercommit: ratio.default(1.5),
    hotHostBrakePercent: percent.default(25),
    /** Highest ratio a namespace label may set, per resource; absent: `cpuRatio` / `memoryRatio` (labels never oversell more). */
    maxLabelRatio: z.object({ cpu: ratio.optional(), memory: ratio.optional() }).strict().default({}),
    /** Pods with more containers (init containers included) are admitted unscaled, with a warning. */
    maxContainers: z.number().int().min(1).max(100_000).default(200),
    /** `observe`: no patch; the response carries a warning with the patch it would have applied. */
    mode: z.enum(["enforce", "observe"]).default("enforce"),
  })
  .strict()
  .default({});

const kubernetesSchema = z
  .object({
    enabled: z.union([z.literal("auto"), z.boolean()]).default("auto"),
    /** Path to a kubeconfig; else KUBECONFIG, else in-cluster. */
    kubeconfig: z.string().optional(),
    /** Each watch asks for a timeoutSeconds drawn between this and twice this (client-go's reflector). */
    resyncSeconds: seconds.default(300),
    /** A watch silent (no event, no bookmark) this long makes hvx probe the API server; restarted only when that fails. */
    watchIdleSeconds: seconds.max(600).default(120),
    /** List and Lease calls give up after this long. */
    requestTimeoutSeconds: seconds.default(30),
    /** A cluster view older than this: the Kubernetes-layer rules (limits, stacked cap, spread) have no opinion. */
    maxCacheAgeSeconds: seconds.default(300),
  })
  .strict()
  .default({});

const burstGuardSchema = z
  .object({
    enabled: z.boolean().default(true),
    settleSeconds: seconds.default(60),
    defaultCpu: quantity("cpu").default("100m"),
    defaultMemory: quantity("memory").default("128Mi"),
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

/** Predicted heat (issue 9 §2, docs/prediction.md). */
const predictionSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** How far ahead a long-lived pod looks at its host's predicted peak; a day covers every half-hour bucket once. */
    horizonHours: z.number().gt(0).max(168).default(24),
    /** true: a predicted peak over a rejection threshold filters the node out; false: it only lowers the score. */
    filter: z.boolean().default(false),
  })
  .strict()
  .default({});

/** The correlated-burst cap (issue 26 §2, docs/prediction.md "Correlated bursts"). */
const correlationSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Share of a host's CPU left by its non-Kubernetes load that one correlated group may expect before it costs points. */
    softShare: finite.min(0).max(0.99).default(0.75),
    /** Score points at a share of 1 (the group alone fills what is left), against the best candidate host. */
    maxPenalty: finite.min(0).max(10).default(6),
    /** Share above which the host is rejected; absent: never (points only). */
    hardShare: finite.gt(0).optional(),
    /** Count the replica groups learnt (from trusted host history) to burst with the pod's own into its group. */
    learnGroups: z.boolean().default(true),
    /** Even a bursting group's replica spread in proportion to each host's room (capacity minus non-Kubernetes load), not by count. */
    spreadByRoom: z.boolean().default(true),
  })
  .strict()
  .default({});

/** Thresholds of the advice (`GET /debug/advice`, `hvx advise`); hvx acts on none of it. */
const adviceSchema = z
  .object({
    maxVcpuPerPcpu: positive.default(3.0),
    maxVramPerPram: positive.default(1.0),
  })
  .strict()
  .default({});

/** Issue 25 §2: touch the pending pods hvx rejected for host heat once the host cools, so kube-scheduler retries them. */
const requeueSchema = z
  .object({
    /** Needs the cluster view (`kubernetes.enabled`) and RBAC `patch` on pods. */
    enabled: z.boolean().default(true),
    /** Pods touched per second at most, per replica. */
    maxPodsPerSecond: positive.max(1000).default(5),
    /** How often the remembered pods are checked against the latest inventory. */
    intervalSeconds: seconds.default(5),
    /** A pod is touched at most once per this many seconds. */
    minIntervalSeconds: seconds.default(60),
    /** Rejected pods remembered at most, per replica (oldest forgotten first). */
    maxPods: z.number().int().min(1).max(1_000_000).default(10_000),
  })
  .strict()
  .default({});

const nodeLabelsSchema = z
  .object({
    enabled: z.boolean().default(false),
    leaseDurationSeconds: seconds.default(15),
    /** How often the leader compares and patches node labels and annotations. */
    intervalSeconds: seconds.default(10),
    /** A hot host turns warm only once every value is this % of its threshold below it, two polls in a row. */
    hysteresisPercent: z.number().min(0).max(100).default(10),
    /** A node's hvx.io/host-heat annotation changes at most once per this many seconds. */
    minHeatChangeSeconds: z.number().min(0).default(120),
  })
  .strict()
  .default({});

/** Rebalancing off chronically hot hosts (docs/rebalance.md): off by default, and a dry run when first turned on. */
const rebalanceSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** Decide, record an Event and log, but evict nothing. */
    dryRun: z.boolean().default(true),
    /** One decision cycle this often (the leader only). */
    intervalSeconds: seconds.default(60),
    /** Lease `hvx-rebalancer` in hvx's own namespace. */
    leaseDurationSeconds: seconds.default(15),
    /** A host hot on a CPU-ready or memory rule this long, without a break, is chronically hot. */
    hotForMinutes: positive.max(1440).default(10),
    maxEvictionsPerCycle: z.number().int().min(1).max(100).default(2),
    maxEvictionsPerHour: z.number().int().min(1).max(1000).default(20),
    /**
     * Issue 26's bound on each rolling hour: floor(this x running pods / 100) evictions at most
     * (below 50 pods at 2: none). 100: each pod once an hour, leaving `maxEvictionsPerHour` alone.
     */
    maxEvictionsPer100PodHours: positive.max(100).default(2),
    /** Pods with emptyDir or hostPath volumes lose that data when evicted: left alone unless true. */
    evictLocalStorage: z.boolean().default(false),
    // Short spells and node VMs (issue 26 §3): evict only when the contention removed beats the restart.
    /** What an eviction costs the pod: seconds until its replacement runs again. */
    restartSeconds: seconds.default(30),
    /** Shortest spell (host or node VM) the cost model weighs; longer than one sample, so one noisy sample never evicts. */
    minSpellSeconds: seconds.default(60),
    /** A node VM whose own CPU ready per vCPU is at or above this is in a spell (5: "contended"). */
    vmReadyPercent: percent.positive().default(5),
  })
  .strict()
  .default({});

export const configSchema = z
  .object({
    /** `observe`: the extender answers as if hvx were not there and records what it would have done. */
    mode: z.enum(["enforce", "observe"]).default("enforce"),
    server: serverSchema,
    vcenter: vcenterSchema.default({}),
    /** Several vCenters (issue 11 §2); `vcenter:` is the one-vCenter form. Both at once is an error. */
    vcenters: z
      .array(vcenterEntrySchema)
      .default([])
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        list.forEach((vc, i) => {
          if (vc.url === undefined)
            ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, "url"], message: "is required in a vcenters entry" });
          if (vc.name === undefined) {
            if (list.length > 1)
              ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, "name"], message: "is required when more than one vCenter is listed" });
          } else if (seen.has(vc.name)) {
            ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, "name"], message: `${JSON.stringify(vc.name)} is used by two entries` });
          } else seen.add(vc.name);
        });
      }),
    metrics: metricsSchema,
    prometheus: prometheusSchema,
    nodeMapping: z
      .array(z.enum(MAPPING_RULES))
      .min(1)
      .default([...MAPPING_RULES])
      .refine((rules) => new Set(rules).size === rules.length, { message: "lists a rule twice" }),
    thresholds: thresholdsSchema,
    staleMetrics: z.enum(["pass", "reject"]).default("pass"),
    filter: z
      .object({
        /** When host heat rejects every candidate: pass the coolest tier (safety valve) or reject all. */
        whenAllRejected: z.enum(["pass-coolest", "reject"]).default("pass-coolest"),
      })
      .strict()
      .default({}),
    exempt: exemptSchema,
    scoring: scoringSchema,
    admission: admissionSchema,
    kubernetes: kubernetesSchema,
    burstGuard: burstGuardSchema,
    limits: limitsSchema,
    prediction: predictionSchema,
    correlation: correlationSchema,
    advice: adviceSchema,
    nodeLabels: nodeLabelsSchema,
    requeue: requeueSchema,
    rebalance: rebalanceSchema,
    workloadClasses: workloadClassesSchema,
    log: z
      .object({ level: z.enum(["fatal", "error", "warn", "info", "debug", "trace"]).default("info") })
      .strict()
      .default({}),
  })
  .strict()
  .superRefine(checkPoolClusters);

export type Config = z.infer<typeof configSchema>;
export type Thresholds = Config["thresholds"];
