/**
 * Whether a replica group's pods burst together, by construction: the replicas of a long-lived
 * controller (ReplicaSet, StatefulSet, an `app` label) serve the same traffic, so they rise with
 * it at once. A Job's pods (`Job/ns/name`) run their work flat out from start to end: their use
 * is their steady state, already in the host's usage, not a burst on top of it. Counting them
 * would push steady batch work off the hosts with non-Kubernetes load, onto the hosts the
 * bursting services need (measured in the twin: docs/prediction.md, "Correlated bursts").
 */
export function burstsTogether(owner: string): boolean {
  return !owner.startsWith("Job/");
}
