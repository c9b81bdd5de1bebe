import type { KubernetesRule } from "./kubernetes-rule.js";

/** The host's pod CPU limits with the pod's over its physical cores (stacked-overcommit.ts): reads the pod's CPU limit. */
export const stackedCap: KubernetesRule = {
  name: "stacked-cap",
  podKey: ({ pod }) => `${pod.limits.cpuMilli}`,
  onHost: (entry, { facts, policy, index }) => index.stackedCpu(entry, facts.pod, policy.limits),
};
