import type { InventoryView } from "../model/inventory.js";
import type { Logger } from "../observability/logger.js";
import { HostLoadProfiles } from "../placement/host-load-profiles.js";
import { PREDICTION_PERCENTILE } from "../placement/predicted-peak.js";
import { REALTIME_INTERVAL_ID } from "./perf-batches.js";
import type { PredictionMetrics } from "./prediction-metrics.js";
import type { WarmStartOutcome } from "./warm-start-history.js";

/** Reads vCenter's history of `hostIds` into `profiles` (`warmStartHistory` with the poller's session and limits). */
export type HistoryReader = (
  view: InventoryView,
  hostIds: readonly string[],
  profiles: HostLoadProfiles,
  vcenterNowMs: number,
  offsetMs: number,
) => Promise<WarmStartOutcome>;

export interface ForecastKeeperOptions {
  readonly metrics: PredictionMetrics;
  readonly log: Logger;
  readonly clock: () => number;
  readonly readHistory: HistoryReader;
}

/**
 * A poller's side of predicted heat (issue 9 §2): the hosts' load profiles, fed with every
 * poll's samples and warm-started from vCenter's history for hosts seen the first time, and
 * the forecasts attached to each published inventory (computed once per poll, so a placement
 * request only looks its pod's horizon up).
 */
export class ForecastKeeper {
  private readonly profiles = new HostLoadProfiles();
  private warming: Promise<void> | undefined;
  private historyNoted = false;

  constructor(private readonly options: ForecastKeeperOptions) {}

  private get metrics(): PredictionMetrics {
    return this.options.metrics;
  }

  /**
   * Records the cycle's host samples, starts the warm start of new hosts in the background (a
   * poll never waits for history; their forecasts appear from a later poll on) and returns the
   * view with the forecasts from its poll time.
   */
  withForecasts(view: InventoryView, clockOffsetMs: number): InventoryView {
    this.profiles.retain(new Set(view.hosts.keys()));
    // Before recording: a host is new while it has no profile.
    this.warmStart(view, clockOffsetMs);
    this.profiles.recordInventory(view, REALTIME_INTERVAL_ID);
    this.metrics.setProfileHosts(this.profiles.learntHosts);
    return { ...view, forecasts: this.profiles.forecasts(view.polledAtMs ?? this.options.clock()) };
  }

  /** Resolves when the warm start under way, if any, is over. */
  historySettled(): Promise<void> {
    return this.warming ?? Promise.resolve();
  }

  private warmStart(view: InventoryView, offsetMs: number): void {
    if (this.warming) return;
    const fresh = [...view.hosts.keys()].filter((id) => !this.profiles.has(id));
    if (fresh.length === 0) return;
    // Tried once per host: one without history learns from the polls.
    for (const id of fresh) this.profiles.profileOf(id);
    const { log } = this.options;
    this.warming = this.options
      .readHistory(view, fresh, this.profiles, this.options.clock() + offsetMs, offsetMs)
      .then(async (outcome) => {
        await this.precomputePercentiles(fresh);
        this.metrics.countWarmStart("warmed", outcome.warmedHosts);
        this.metrics.countWarmStart("empty", fresh.length - outcome.warmedHosts);
        this.metrics.countHistorySamples(outcome.samples);
        if (outcome.warmedHosts < fresh.length)
          this.noteOnce({ hosts: fresh.length, warmed: outcome.warmedHosts, failedIntervals: outcome.failedWindows });
        else log.debug({ hosts: fresh.length, samples: outcome.samples }, "load profiles warm-started from vCenter history");
      })
      .catch((err: unknown) => {
        this.metrics.countWarmStart("empty", fresh.length);
        this.noteOnce({ hosts: fresh.length, warmed: 0, error: (err as Error)?.message });
      })
      .finally(() => {
        this.metrics.setProfileHosts(this.profiles.learntHosts);
        this.warming = undefined;
      });
  }

  /**
   * Computes the warmed hosts' bucket percentiles (cached in each profile per half-hour bucket),
   * a host per turn of the event loop: the poll after a warm start forecasts every host, and
   * computing a week of percentiles for 250 hosts there held the loop 80-130 ms. That poll then
   * recomputes only the buckets its own samples changed (every bucket if a half-hour boundary
   * passed meanwhile, as without this). A host removed meanwhile is skipped, not re-created.
   */
  private async precomputePercentiles(hostIds: readonly string[]): Promise<void> {
    for (const id of hostIds) {
      if (!this.profiles.has(id)) continue;
      const profile = this.profiles.profileOf(id);
      if (profile.empty) continue;
      profile.bucketPercentiles(this.options.clock(), PREDICTION_PERCENTILE);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private noteOnce(fields: Record<string, unknown>): void {
    if (this.historyNoted) return;
    this.historyNoted = true;
    this.options.log.info(
      fields,
      "vCenter history did not cover every host (statistics level or interval missing, or refused): their load profiles start empty and learn from the polls",
    );
  }
}
