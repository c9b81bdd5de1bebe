import type { Logger } from "../observability/logger.js";
import type { InventoryView } from "../model/inventory.js";
import { emptyPools } from "../placement/empty-pools.js";
import type { WorkloadClassPolicy } from "../placement/policy.js";
import type { Stop } from "./stops.js";

/**
 * Warns when a workload class's hard pool matches no host of the polled inventory (a typo in a
 * host name pattern or a cluster name keeps every pod of the class pending): once when it
 * starts, again whenever the set of empty pools changes.
 */
export function watchEmptyPools(
  latest: () => InventoryView,
  classes: WorkloadClassPolicy | undefined,
  log: Logger,
  intervalMs: number,
): Stop {
  let said = "";
  const check = () => {
    const inventory = latest();
    const empty = emptyPools(inventory, classes);
    const text = empty.join(",");
    if (text === said) return;
    said = text;
    for (const workloadClass of empty)
      log.warn(
        { key: `workloadClasses.pools.${workloadClass}`, hosts: inventory.hosts.size, pool: classes!.pools[workloadClass] },
        `the ${workloadClass} pool matches none of the inventory's hosts: every ${workloadClass} pod is rejected on every node and stays pending`,
      );
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
