import type { WorkloadClass } from "../model/cluster.js";
import {
  classifyWorkload,
  DEFAULT_WORKLOAD_CLASSIFICATION,
  type WorkloadClassification,
  type WorkloadFacts,
} from "../placement/workload-class.js";
import type { World } from "./build-world.js";

/** The kind of the pod's controller: a Job for a repeating workload's batches, else a ReplicaSet. */
export function controllerKindOf(world: World, pod: number): "Job" | "ReplicaSet" {
  return world.pods.replicaSet[pod]! < 0 ? "Job" : "ReplicaSet";
}

/**
 * What the pod shows the workload-class rules: its workload's labels, its priority, its
 * controller and its QoS class (requests equal to limits: Guaranteed; the scenario's limits are
 * always set, so never BestEffort).
 */
export function workloadFactsOf(world: World, pod: number): WorkloadFacts {
  const { pods } = world;
  const guaranteed = pods.origCpuMilli[pod] === pods.limCpuMilli[pod] && pods.origMemMiB[pod] === pods.limMemMiB[pod];
  return {
    labels: world.scenario.workloads[pods.workload[pod]!]!.labels,
    priority: pods.priority[pod]!,
    controllerKind: controllerKindOf(world, pod),
    qosClass: guaranteed ? "Guaranteed" : "Burstable",
  };
}

const memo = new WeakMap<World, WeakMap<WorkloadClassification, ReadonlyArray<WorkloadClass | undefined>>>();

/** Every pod's workload class under `classification` (absent: the defaults); computed once per world and classification. */
export function podClassesOf(
  world: World,
  classification: WorkloadClassification = DEFAULT_WORKLOAD_CLASSIFICATION,
): ReadonlyArray<WorkloadClass | undefined> {
  let byClassification = memo.get(world);
  if (!byClassification) memo.set(world, (byClassification = new WeakMap()));
  let classes = byClassification.get(classification);
  if (!classes) {
    classes = Array.from({ length: world.pods.count }, (_, p) => classifyWorkload(workloadFactsOf(world, p), classification));
    byClassification.set(classification, classes);
  }
  return classes;
}
