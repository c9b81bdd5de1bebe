import type { HostView } from "../model/inventory.js";
import type { HostPool } from "./policy.js";

const compiled = new WeakMap<HostPool, readonly RegExp[]>();

/** `*` matches any run of characters, everything else itself; case-insensitive, as DNS names are. */
function globOf(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

/**
 * Whether the host belongs to the pool: its cluster is one of `clusters` and its name matches
 * one of `hostNames`, each only when given. A host whose cluster hvx does not know satisfies
 * `clusters` (unknown is no opinion: the pool neither claims nor refuses it).
 */
export function inHostPool(host: HostView, pool: HostPool): boolean {
  if (pool.clusters.length > 0 && host.clusterName !== undefined && !pool.clusters.includes(host.clusterName)) return false;
  if (pool.hostNames.length === 0) return true;
  let patterns = compiled.get(pool);
  if (!patterns) compiled.set(pool, (patterns = pool.hostNames.map(globOf)));
  return patterns.some((p) => p.test(host.name));
}
