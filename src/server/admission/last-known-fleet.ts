import type { HostView } from "../../model/inventory.js";
import type { Logger } from "../../observability/logger.js";
import { fleetView, type FleetView } from "../../oversell/fleet-view.js";
import type { HostAssessment } from "../../placement/assess-host.js";

export interface LastKnownFleetDeps {
  /** The hosts backing the cluster's nodes (or every polled host); empty without host data. */
  readonly hosts: () => readonly HostView[];
  /** The extender's own verdict on a host at `nowMs` (`assessHostAlone` with the configured thresholds). */
  readonly assess: (host: HostView, nowMs: number) => HostAssessment;
  /** Epoch ms. */
  readonly clock: () => number;
  readonly log: Logger;
}

type Source = "none" | "fresh" | "last_known";

/**
 * The fleet view the admission webhook caps with, kept across vCenter outages. The memory is
 * state, so it lives here at the edge; the oversell core stays pure and only reads
 * `FleetView.lastKnown`.
 *
 * - Some host has a fresh inventory entry: the view is computed from the hosts and remembered.
 * - No host, or every host's entry stale: the last known view, marked `lastKnown` (from the
 *   stale hosts themselves while the poller still serves them). Before any host data since
 *   start: undefined, and the core does not oversell at all.
 * - The hot-host brake keeps its last state: a host on whose heat hvx has no opinion now
 *   (missing or stale data) counts as it was last judged (by this object, else as of its own
 *   poll time); a host never judged counts as not hot.
 */
export class LastKnownFleet {
  private last: FleetView | undefined;
  private readonly lastHot = new Map<string, boolean>();
  private source: Source | "start" = "start";

  constructor(private readonly deps: LastKnownFleetDeps) {}

  current(): FleetView | undefined {
    const nowMs = this.deps.clock();
    const hosts = this.deps.hosts();
    if (hosts.length === 0) return this.remembered();
    let anyFresh = false;
    const hot = new Map<string, boolean>();
    for (const h of hosts) {
      const a = this.deps.assess(h, nowMs);
      if (a.staleness?.code !== "inventory_stale") anyFresh = true;
      hot.set(h.id, this.hotOf(h, a));
    }
    const view = fleetView(hosts, (h) => hot.get(h.id) === true);
    if (!anyFresh) {
      this.enter("last_known");
      return { ...view, lastKnown: true };
    }
    for (const id of this.lastHot.keys()) if (!hot.has(id)) this.lastHot.delete(id);
    this.last = view;
    this.enter("fresh");
    return view;
  }

  private remembered(): FleetView | undefined {
    if (!this.last) {
      this.enter("none");
      return undefined;
    }
    this.enter("last_known");
    return { ...this.last, lastKnown: true };
  }

  /** Hot now when hvx has an opinion (and remember it); else the last opinion. */
  private hotOf(h: HostView, a: HostAssessment): boolean {
    const now = opinion(a);
    if (now !== undefined) {
      this.lastHot.set(h.id, now);
      return now;
    }
    const remembered = this.lastHot.get(h.id);
    if (remembered !== undefined) return remembered;
    // Never judged here (no review while its data was fresh): judge it as of its own poll.
    return opinion(this.deps.assess(h, h.polledAtMs)) ?? false;
  }

  private enter(source: Source): void {
    if (source === this.source) return;
    const was = this.source;
    this.source = source;
    if (source === "none") {
      this.deps.log.warn("admission: no vCenter host data since start; no oversell (ratios capped at 1.0) until hosts are known");
    } else if (source === "last_known") {
      this.deps.log.warn("admission: vCenter host data missing or stale; keeping the last known stacked cap and hot-host brake");
    } else if (was === "last_known") {
      this.deps.log.info("admission: fresh vCenter host data again; cap and brake follow it");
    }
  }
}

/** true: hot; false: judged and not hot; undefined: no opinion (missing or stale data, no rejection). */
function opinion(a: HostAssessment): boolean | undefined {
  if (a.rejections.length > 0) return true;
  return a.staleness ? undefined : false;
}
