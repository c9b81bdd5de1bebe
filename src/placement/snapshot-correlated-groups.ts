import type { HostForecast } from "../model/host-forecast.js";
import { learningSteps, NO_CORRELATED_GROUPS, type CorrelatedGroups } from "./correlated-groups.js";
import { burstRoomOf } from "./host-burst-room.js";
import type { PlacementIndex } from "./placement-index.js";

type Forecasts = ReadonlyMap<string, HostForecast>;

/**
 * The correlated groups a placement index answers with, learnt once per poll's forecasts
 * (`InventoryView.forecasts`) from the cluster view the index serves: the groups' placement
 * changes with every binding, their correlation over days does not. None without forecasts (no
 * trusted history).
 *
 * Learning reads every host's pods: some 60 ms on 250 hosts and 50 000 pods, which held the first
 * request after every poll. With `background` (a server) an index answers, until it has learnt,
 * with the groups learnt for the forecasts before, and learns in `step`s its server runs between
 * requests. Without earlier groups (the first forecasts) or without `background` (the simulator,
 * which has no time between requests) it learns when first asked.
 */
export class SnapshotGroups {
  private learnt: { readonly forecasts: Forecasts; readonly groups: CorrelatedGroups } | undefined;
  private learning: { readonly forecasts: Forecasts; readonly steps: Generator<void, CorrelatedGroups> } | undefined;

  constructor(
    readonly background: boolean,
    /** The predecessor's: its groups stand in until this index has learnt its own. */
    earlier?: SnapshotGroups,
  ) {
    this.learnt = earlier?.learnt;
  }

  /** The groups `index` answers with now. */
  of(index: PlacementIndex): CorrelatedGroups {
    const forecasts = forecastsToLearn(index);
    if (!forecasts) return NO_CORRELATED_GROUPS;
    if (this.learnt && (this.learnt.forecasts === forecasts || this.background)) return this.learnt.groups;
    while (!this.advance(index, forecasts));
    return this.learnt!.groups;
  }

  /** Whether `step` has groups to learn for `index`'s forecasts. */
  pending(index: PlacementIndex): boolean {
    const forecasts = forecastsToLearn(index);
    return forecasts !== undefined && this.learnt?.forecasts !== forecasts;
  }

  /**
   * Learns for `index` for about `budgetMs` (at least one step); true when its forecasts' groups
   * are learnt.
   */
  step(index: PlacementIndex, budgetMs: number, now: () => number = () => performance.now()): boolean {
    const forecasts = forecastsToLearn(index);
    if (!forecasts || this.learnt?.forecasts === forecasts) return true;
    const until = now() + budgetMs;
    do {
      if (this.advance(index, forecasts)) return true;
    } while (now() < until);
    return false;
  }

  /** One step of learning `forecasts`' groups; true when they are learnt. A failure keeps the earlier groups for them (no retry). */
  private advance(index: PlacementIndex, forecasts: Forecasts): boolean {
    if (this.learning?.forecasts !== forecasts) this.learning = { forecasts, steps: snapshotLearning(index, forecasts) };
    let next: IteratorResult<void, CorrelatedGroups>;
    try {
      next = this.learning.steps.next();
    } catch (err) {
      this.learnt = { forecasts, groups: this.learnt?.groups ?? NO_CORRELATED_GROUPS };
      this.learning = undefined;
      throw err;
    }
    if (!next.done) return false;
    this.learnt = { forecasts, groups: next.value };
    this.learning = undefined;
    return true;
  }
}

function forecastsToLearn(index: PlacementIndex): Forecasts | undefined {
  return index.occupancy ? index.inventory.forecasts : undefined;
}

/** The hosts' load history and each host's demand per replica group, a host per step, then `learningSteps`. */
function* snapshotLearning(index: PlacementIndex, forecasts: Forecasts): Generator<void, CorrelatedGroups> {
  const hostLoad = new Map<string, ArrayLike<number>>();
  const demandOnHost = new Map<string, ReadonlyMap<string, number>>();
  for (const [hostId, forecast] of forecasts) {
    const entry = forecast.cpuUsageByBucket ? index.hostEntry(hostId) : undefined;
    const room = entry ? burstRoomOf(index, entry) : undefined;
    if (room) {
      hostLoad.set(hostId, forecast.cpuUsageByBucket!);
      demandOnHost.set(hostId, room.burstByOwnerMilli);
    }
    yield;
  }
  return yield* learningSteps(hostLoad, demandOnHost);
}
