import type { InventoryView } from "../model/inventory.js";
import type { SourceStatus } from "../model/metrics-source.js";

/**
 * Why hvx has no vSphere data to judge by, in one line, or undefined when it has some. Without
 * any snapshot every node would look unmapped and every finding absent: explain, advise and
 * /ui say this instead (issue 27 §1), with the source's last error (which names what to set).
 */
export function describeSourceDown(inventory: InventoryView, status: SourceStatus | undefined): string | undefined {
  if (inventory.polledAtMs !== undefined || !status) return undefined;
  const source = status.source ?? "vcenter";
  if (status.lastAttemptMs === undefined || (status.consecutiveFailures === 0 && status.lastSuccessMs === undefined)) {
    return `no data from the ${source} source yet: its first poll has not finished`;
  }
  const since =
    status.lastSuccessMs === undefined ? "no successful poll yet" : `no data since ${new Date(status.lastSuccessMs).toISOString()}`;
  const attempts = `${status.consecutiveFailures} failed attempt${status.consecutiveFailures === 1 ? "" : "s"}`;
  const error = status.authSuspended ? status.authSuspended.error : status.lastError;
  return `the ${source} source is down (${since}, ${attempts})${error ? `: ${error}` : ""}`;
}
