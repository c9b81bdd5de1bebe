import type { KubernetesRule } from "./kubernetes-rule.js";

/** The node's CPU and memory limits with the pod's over allocatable (limit-overcommit.ts): reads the pod's limits. */
export const nodeLimits: KubernetesRule = {
  name: "node-limits",
  podKey: ({ pod }) => `${pod.limits.cpuMilli}/${pod.limits.memoryBytes}`,
};
