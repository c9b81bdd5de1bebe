import type { ClusterView } from "../model/cluster.js";
import type { PlacementPolicy } from "./policy.js";

/** `kubernetes.maxCacheAgeSeconds` default. */
export const DEFAULT_MAX_CACHE_AGE_SECONDS = 300;

/**
 * Whether the Kubernetes-layer rules (limits, stacked cap, spread) may judge with this view:
 * not when it was last heard from more than `maxCacheAgeSeconds` ago (the informers lost the
 * API server), as stale metrics have no opinion. A view never heard from (empty) has nothing
 * to judge with anyway and is not called stale.
 */
export function clusterViewFresh(view: ClusterView, nowMs: number, policy: Pick<PlacementPolicy, "kubernetes">): boolean {
  if (view.lastEventMs === undefined) return true;
  return nowMs - view.lastEventMs <= (policy.kubernetes?.maxCacheAgeSeconds ?? DEFAULT_MAX_CACHE_AGE_SECONDS) * 1000;
}
