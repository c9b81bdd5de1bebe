import type { KubernetesRule } from "./kubernetes-rule.js";

/** Recently bound pods' demand added to the host's usage (burst-guard.ts): other pods', nothing of the incoming one. */
export const burstGuard: KubernetesRule = {
  name: "burst-guard",
  podKey: () => "",
};
