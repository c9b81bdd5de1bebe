import type { HostForecast } from "../model/host-forecast.js";
import { learningSteps, NO_CORRELATED_GROUPS, type CorrelatedGroups } from "./correlated-groups.js";
import { burstRoomOf } from "./host-burst-room.js";
import type { PlacementIndex } from "./placement-index.js";

type Forecasts = ReadonlyMap<string, HostForecast>;

/**
 * The groups learnt per poll's forecasts (`InventoryView.forecasts`), from the cluster view the
 * first index to learn them served: the groups' placement changes with every binding, their
 * correlation over days does not. Shared by every index of those forecasts (the extender's, a
 * preemption's, explain's).
 */
const learnt = new WeakMap<Forecasts, CorrelatedGroups>();

/**
 * The correlated groups one placement index answers with. None without forecasts (no trusted
 * history) or without a cluster view.
 *
 * Learning reads every host's pods: some 60 ms on 250 hosts and 50 000 pods, which held the first
 * request after every poll. With `background` (a server) an index answers, until it has learnt,
 * with the groups its predecessor answered with, and learns in `step`s its server runs between
 * requests. Without earlier groups (the first forecasts) or without `background` (the simulator,
 * which has no time between requests) it learns when first asked. Once an index has answered, its
 * groups change only through `step`, so that the index can forget what it decided with the old ones.
 */
export class SnapshotGroups {
  /** What this index answers with; undefined until first asked. */
  private answered: CorrelatedGroups | undefined;
  private readonly earlier: CorrelatedGroups | undefined;
  private learning: { readonly forecasts: Forecasts; readonly steps: Generator<void, CorrelatedGroups> } | undefined;

  constructor(
    private readonly background: boolean,
    /** The predecessor's: its groups stand in until this index has learnt its own. */
    predecessor?: SnapshotGroups,
  ) {
    this.earlier = predecessor?.answered ?? predecessor?.earlier;
  }

  /** The groups `index` answers with now. */
  of(index: PlacementIndex): CorrelatedGroups {
    const forecasts = forecastsToLearn(index);
    if (!forecasts) return NO_CORRELATED_GROUPS;
    if (this.answered) return this.answered;
    const known = learnt.get(forecasts);
    if (known) return (this.answered = known);
    if (this.background && this.earlier) return (this.answered = this.earlier);
    while (!this.advance(index, forecasts));
    return (this.answered = learnt.get(forecasts)!);
  }

  /** Whether `step` has groups to learn for `index`'s forecasts (or to take from another index that learnt them). */
  pending(index: PlacementIndex): boolean {
    const forecasts = forecastsToLearn(index);
    return forecasts !== undefined && this.answered !== undefined && this.answered !== learnt.get(forecasts);
  }

  /**
   * Learns for `index` for about `budgetMs` (at least one step); true once it answers with its
   * forecasts' groups.
   */
  step(index: PlacementIndex, budgetMs: number, now: () => number = () => performance.now()): boolean {
    const forecasts = forecastsToLearn(index);
    if (!forecasts || !this.pending(index)) return true;
    const until = now() + budgetMs;
    while (!learnt.has(forecasts)) {
      if (this.advance(index, forecasts)) break;
      if (now() >= until) return false;
    }
    this.answered = learnt.get(forecasts);
    return true;
  }

  /** One step of learning `forecasts`' groups; true when they are learnt. A failure keeps the earlier groups for them (no retry). */
  private advance(index: PlacementIndex, forecasts: Forecasts): boolean {
    if (this.learning?.forecasts !== forecasts) this.learning = { forecasts, steps: snapshotLearning(index, forecasts) };
    let next: IteratorResult<void, CorrelatedGroups>;
    try {
      next = this.learning.steps.next();
    } catch (err) {
      learnt.set(forecasts, this.answered ?? this.earlier ?? NO_CORRELATED_GROUPS);
      this.learning = undefined;
      throw err;
    }
    if (!next.done) return false;
    learnt.set(forecasts, next.value);
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
