import type { HostForecast } from "../model/host-forecast.js";
import { learnCorrelatedGroups, NO_CORRELATED_GROUPS, type CorrelatedGroups } from "./correlated-groups.js";
import { burstRoomOf } from "./host-burst-room.js";
import type { PlacementIndex } from "./placement-index.js";

const learnt = new WeakMap<ReadonlyMap<string, HostForecast>, CorrelatedGroups>();

/**
 * The correlated groups of a snapshot, learnt once per poll's forecasts (`InventoryView.forecasts`)
 * from the cluster view the first request of that poll sees: the groups' placement changes with
 * every binding, their correlation over days does not. None without forecasts (no trusted history).
 */
export function correlatedGroupsOf(index: PlacementIndex): CorrelatedGroups {
  const forecasts = index.inventory.forecasts;
  if (!forecasts || !index.occupancy) return NO_CORRELATED_GROUPS;
  const known = learnt.get(forecasts);
  if (known) return known;
  const hostLoad = new Map<string, ArrayLike<number>>();
  const demandOnHost = new Map<string, ReadonlyMap<string, number>>();
  for (const [hostId, forecast] of forecasts) {
    const entry = forecast.cpuUsageByBucket ? index.hostEntry(hostId) : undefined;
    const room = entry ? burstRoomOf(index, entry) : undefined;
    if (!room) continue;
    hostLoad.set(hostId, forecast.cpuUsageByBucket!);
    demandOnHost.set(hostId, room.burstByOwnerMilli);
  }
  const groups = learnCorrelatedGroups(hostLoad, demandOnHost);
  learnt.set(forecasts, groups);
  return groups;
}
