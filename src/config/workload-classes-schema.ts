import { z } from "zod";
import { DEFAULT_ONLINE_MIN_PRIORITY, WORKLOAD_CLASS_LABEL } from "../placement/workload-class.js";

/** A label key as the API server accepts it: an optional DNS subdomain prefix and `/`, then a name of at most 63 characters. */
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

const priority = z.number().int().min(-2_147_483_648).max(2_147_483_647);

/** ESXi hosts a class is pinned to: every given criterion must hold (a host in one of `clusters` whose name matches one of `hostNames`). */
const hostPoolSchema = z
  .object({
    /** vSphere cluster names. */
    clusters: z.array(z.string().min(1)).default([]),
    /** Host names as vCenter shows them, `*` matching any run of characters (`esx-0*.lab`). */
    hostNames: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .refine((p) => p.clusters.length > 0 || p.hostNames.length > 0, {
    message: "needs clusters or hostNames (an empty pool would hold no host)",
  });

/** Online and batch pods on different ESXi hosts (README "Cluster awareness", "Workload classes"). */
export const workloadClassesSchema = z
  .object({
    /** Label whose value `online`, `batch` or `none` names a pod's class outright; "" ignores labels. */
    label: z
      .union([z.literal(""), z.string().regex(LABEL_KEY, "must be a Kubernetes label key (e.g. hvx.io/workload-class)")])
      .default(WORKLOAD_CLASS_LABEL),
    online: z
      .object({
        priorityClassNames: z.array(z.string().min(1)).default([]),
        /** `spec.priority` at or above this makes a pod online; null: never. */
        minPriority: priority.nullable().default(DEFAULT_ONLINE_MIN_PRIORITY),
      })
      .strict()
      .default({}),
    batch: z
      .object({
        priorityClassNames: z.array(z.string().min(1)).default([]),
        /** `spec.priority` at or below this makes a pod batch; null: never. */
        maxPriority: priority.nullable().default(-1),
        /** Pods a Job controls (CronJobs' too) are batch. */
        jobs: z.boolean().default(true),
        /** BestEffort pods are batch. */
        bestEffort: z.boolean().default(true),
      })
      .strict()
      .default({}),
    /** Score points off a host for a pod of one class, times the other class's share of the host's pods' expected CPU; 0: off. */
    mixPenalty: z.number().finite().min(0).max(10).default(3),
    /** Hard pools: a pod of the class is rejected on every host outside its pool. */
    pools: z.object({ online: hostPoolSchema.optional(), batch: hostPoolSchema.optional() }).strict().default({}),
  })
  .strict()
  .default({})
  .superRefine((w, ctx) => {
    const { minPriority } = w.online;
    const { maxPriority } = w.batch;
    if (minPriority !== null && maxPriority !== null && maxPriority >= minPriority)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["batch", "maxPriority"],
        message: `${maxPriority} must be below online.minPriority (${minPriority}): a priority cannot be both classes`,
      });
    for (const name of w.online.priorityClassNames)
      if (w.batch.priorityClassNames.includes(name))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["batch", "priorityClassNames"],
          message: `${JSON.stringify(name)} is also in online.priorityClassNames: a class cannot be both`,
        });
  });

/** The parts of the configuration `checkPoolClusters` reads. */
interface PoolClusterSources {
  readonly metrics: { readonly source: string };
  readonly prometheus: { readonly flavour: string };
  readonly vcenter: { readonly clusters: readonly string[] };
  readonly vcenters: ReadonlyArray<{ readonly clusters: readonly string[] }>;
  readonly workloadClasses: z.output<typeof workloadClassesSchema>;
}

/**
 * A pool by cluster needs hosts whose cluster hvx knows: from vCenter it learns a host's cluster
 * only by listing the clusters it is told to poll (the Telegraf flavour reads its inventory from
 * vCenter too); vmware_exporter labels every host with its cluster.
 */
export function checkPoolClusters(c: PoolClusterSources, ctx: z.RefinementCtx): void {
  if (c.metrics.source === "prometheus" && c.prometheus.flavour === "vmware_exporter") return;
  const vcenters = c.vcenters.length > 0 ? c.vcenters : [c.vcenter];
  const polled = new Set(vcenters.flatMap((vc) => vc.clusters));
  const everyClusterListed = vcenters.every((vc) => vc.clusters.length > 0);
  for (const cls of ["online", "batch"] as const) {
    const clusters = c.workloadClasses.pools[cls]?.clusters ?? [];
    const path = ["workloadClasses", "pools", cls, "clusters"];
    if (clusters.length > 0 && !everyClusterListed)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path,
        message:
          "needs vcenter.clusters (each vcenters entry's clusters): hvx knows a host's cluster only for the clusters it polls; or pin by hostNames",
      });
    else
      for (const name of clusters.filter((n) => !polled.has(n)))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path,
          message: `${JSON.stringify(name)} is not in vcenter.clusters: no host of it is polled`,
        });
  }
}
