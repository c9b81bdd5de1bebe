import type { ClusterSource, ResourceAmounts } from "../model/cluster.js";
import { toPodView, type PodWire } from "../cluster/to-pod-view.js";
import type { PlacementContext } from "../placement/decide-node.js";
import type { NodeScore } from "../placement/filter-nodes.js";
import { recordAnswer, type InFlightLedger } from "../placement/in-flight-ledger.js";
import { DEFAULT_WORKLOAD_CLASSIFICATION, type WorkloadClassification } from "../placement/workload-class.js";
import type { ParsedExtenderArgs } from "../protocol/parse-extender-args.js";

/**
 * The extender's cluster awareness as `hvx serve` wires it: every request's context carries
 * the informer's view with the in-flight pods merged in, and every enforce-mode prioritize
 * answer is offered to the ledger (which records it only for a pod the informer knows as
 * pending). `defaults` are the burst guard's for a pod that declares nothing; `classes` sorts
 * the pod into its workload class.
 */
export function inFlightEnrichment(
  cluster: ClusterSource,
  ledger: InFlightLedger,
  defaults: ResourceAmounts,
  classes: WorkloadClassification = DEFAULT_WORKLOAD_CLASSIFICATION,
) {
  return {
    enrich: (ctx: PlacementContext, req: ParsedExtenderArgs): PlacementContext => {
      const pod = toPodView(req.args.Pod as PodWire, defaults, ctx.nowMs, [], classes);
      return { ...ctx, cluster: { view: ledger.viewWith(cluster.latest(), ctx.nowMs, pod.uid), pod } };
    },
    onPrioritized: (scores: readonly NodeScore[], ctx: PlacementContext): void => recordAnswer(ledger, scores, ctx),
  };
}
