import type { WirePod } from "./extender-wire.js";

/**
 * The preemption verb's wire types (k8s.io/kube-scheduler/extender/v1/types.go). No json tags:
 * keys are Go field names, and Go's decoder also accepts them in any case (see go-json-fields.ts).
 */

/** MetaPod: a pod by identifier only. */
export interface MetaPodWire {
  UID: string;
}

/** Victims (nodeCacheCapable: false): whole pods. */
export interface VictimsWire {
  readonly Pods: readonly WirePod[];
  readonly NumPDBViolations: number;
}

/** MetaVictims (nodeCacheCapable: true, and always in the reply). */
export interface MetaVictimsWire {
  Pods: MetaPodWire[];
  NumPDBViolations: number;
}

/** ExtenderPreemptionArgs: exactly one of the two maps is non-null. */
export interface ExtenderPreemptionArgs {
  readonly Pod: WirePod;
  readonly NodeNameToVictims: Readonly<Record<string, VictimsWire | null>> | null;
  readonly NodeNameToMetaVictims: Readonly<Record<string, MetaVictimsWire | null>> | null;
}

/**
 * ExtenderPreemptionResult. kube-scheduler maps each node back to its NodeInfo and each UID back
 * to a pod on that node; an unknown node or UID fails its preemption, so the reply holds only
 * nodes and victims that were sent.
 */
export interface ExtenderPreemptionResult {
  NodeNameToMetaVictims: Record<string, MetaVictimsWire>;
}
