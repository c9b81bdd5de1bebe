import type { HostForecast } from "../model/host-forecast.js";
import type { InventoryView } from "../model/inventory.js";
import { LoadProfile } from "./load-profile.js";
import { buildHostForecast } from "./predicted-peak.js";

/**
 * The load profiles of every host hvx has seen, keyed by host id: what the poller (and the
 * simulated hvx) learns from its polls, and the forecasts it precomputes once per poll for
 * the placement context (`InventoryView.forecasts`). No clock: times come with the samples.
 */
export class HostLoadProfiles {
  private readonly profiles = new Map<string, LoadProfile>();
  private readonly seen = new Map<string, number>();

  /** The host's profile, created empty on first use. */
  profileOf(hostId: string): LoadProfile {
    let profile = this.profiles.get(hostId);
    if (!profile) this.profiles.set(hostId, (profile = new LoadProfile()));
    return profile;
  }

  /** Whether the host has a profile (even an empty one): a warm start was tried or samples came. */
  has(hostId: string): boolean {
    return this.profiles.has(hostId);
  }

  /**
   * Records each host's metrics sample of a polled inventory, `intervalS` seconds long, once
   * per sample time (a poll that brought no new sample for a host adds nothing).
   */
  recordInventory(inventory: InventoryView, intervalS: number): void {
    for (const host of inventory.hosts.values()) {
      const m = host.metrics;
      if (!m || (this.seen.get(host.id) ?? Number.NEGATIVE_INFINITY) >= m.sampledAtMs) continue;
      this.seen.set(host.id, m.sampledAtMs);
      this.profileOf(host.id).record(m.sampledAtMs, intervalS, m);
    }
  }

  /** Forgets hosts no longer in the inventory (removed from vCenter). */
  retain(hostIds: ReadonlySet<string>): void {
    for (const id of this.profiles.keys()) {
      if (hostIds.has(id)) continue;
      this.profiles.delete(id);
      this.seen.delete(id);
    }
  }

  /** Hosts with at least one recorded sample. */
  get learntHosts(): number {
    let n = 0;
    for (const p of this.profiles.values()) if (!p.empty) n++;
    return n;
  }

  /** Every host's forecast from `fromMs`; hosts without history have none. */
  forecasts(fromMs: number): ReadonlyMap<string, HostForecast> {
    const out = new Map<string, HostForecast>();
    for (const [id, profile] of this.profiles) {
      const f = buildHostForecast(profile, fromMs);
      if (f) out.set(id, f);
    }
    return out;
  }
}
