import type { InventoryView } from "../model/inventory.js";
import type { HostErrorStatus } from "../model/metrics-source.js";
import type { Logger } from "../observability/logger.js";
import type { HostFailure } from "./poll-cycle.js";

/**
 * The hosts the last cycles could not read: why, since when and how many times in a row. A
 * host read again, or gone from vCenter's host list, leaves the book.
 */
export class HostErrorBook {
  private readonly errors = new Map<string, HostErrorStatus>();

  constructor(
    private readonly log: Logger,
    private readonly onFailure: (reason: HostFailure["reason"]) => void,
  ) {}

  /** Books one successful cycle's failed hosts (at `nowMs`) and logs one summary line. */
  record(view: InventoryView, failed: ReadonlyMap<string, HostFailure>, nowMs: number): void {
    for (const id of view.hosts.keys()) if (!failed.has(id)) this.errors.delete(id);
    for (const [id, f] of failed) {
      const before = this.errors.get(id);
      const error = f.error instanceof Error ? f.error.message : String(f.error);
      this.errors.set(id, {
        reason: f.reason,
        error,
        sinceMs: before?.sinceMs ?? nowMs,
        consecutiveFailures: (before?.consecutiveFailures ?? 0) + 1,
      });
      this.onFailure(f.reason);
    }
    for (const id of this.errors.keys()) if (!view.hosts.has(id) && !failed.has(id)) this.errors.delete(id);
    if (failed.size > 0) {
      const reasons: Record<string, number> = {};
      for (const f of failed.values()) reasons[f.reason] = (reasons[f.reason] ?? 0) + 1;
      this.log.warn(
        {
          failedHosts: failed.size,
          reasons,
          hosts: [...failed.keys()].slice(0, 10),
          firstError: this.errors.get([...failed.keys()][0]!)?.error,
        },
        "vCenter poll cycle could not read some hosts; they keep their previous data and the others are published",
      );
    }
  }

  /** By host id; undefined when no host is failing. */
  status(): Record<string, HostErrorStatus> | undefined {
    if (this.errors.size === 0) return undefined;
    return Object.fromEntries([...this.errors].map(([id, e]) => [id, { ...e }]));
  }
}
