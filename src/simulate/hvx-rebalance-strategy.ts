import type { Config } from "../config/index.js";
import type { PlacementPolicy } from "../placement/index.js";
import { chooseEvictions, type PastEviction, type RebalancePolicy } from "../rebalance/choose-evictions.js";
import { nextHotSpells, type HotSpell } from "../rebalance/hot-spells.js";
import { EMPTY_SPELL_HISTORY, endedSpellSeconds, withEnded, type SpellHistory } from "../rebalance/spell-cost.js";
import { nextVmSpells, type VmSpell } from "../rebalance/vm-spells.js";
import { hvxStrategy, type HvxStrategyOptions } from "./hvx-strategy.js";
import { observedInventory } from "./observed-inventory.js";
import { SimClusterView } from "./sim-cluster-view.js";
import type { Strategy, StrategyDeps } from "./strategy.js";
import { podClassesOf } from "./sim-pod-facts.js";

/** The rebalancer's keys as the simulator uses them (`rebalance.*` and `admission.hotHostBrakePercent`). */
export interface SimRebalancePolicy extends RebalancePolicy {
  readonly intervalSeconds: number;
  /** `nodeLabels.hysteresisPercent`: when a hot spell ends. */
  readonly hysteresisPercent: number;
}

const HOUR_MS = 3_600_000;

/** The rebalancer's keys from a validated config. */
export function simRebalancePolicyOf(config: Pick<Config, "rebalance" | "admission" | "nodeLabels">): SimRebalancePolicy {
  return {
    ...config.rebalance,
    hotHostBrakePercent: config.admission.hotHostBrakePercent,
    hysteresisPercent: config.nodeLabels.hysteresisPercent,
  };
}

/**
 * `hvx+rebalance`: the `hvx` strategy's placement, plus production's rebalancer on the
 * simulated state: after every step the hot spells are brought up to date from the lagged
 * sample hvx sees (as the poller would), and every `intervalSeconds` the very same
 * `chooseEvictions` picks the pods to evict (always for real: the dry run is a production
 * safety step with nothing to show here). Without per-pod usage in production, the decision
 * ranks by the pod's CPU limit above its request here too. An evicted pod is recreated by
 * its controller as a new pod (new uid), so the one-hour rule does not hold it back; the
 * run loop puts it back in the scheduling queue `restartSeconds` later. The node VMs' own
 * ready spells and the ended spells' durations (the cost model's evidence) are kept as the
 * production rebalancer keeps them.
 */
export function hvxRebalanceStrategy(
  deps: StrategyDeps,
  policy: PlacementPolicy,
  rebalance: SimRebalancePolicy,
  opts: HvxStrategyOptions = {},
): Strategy {
  const { world, state, ring } = deps;
  const base = hvxStrategy(deps, policy, opts);
  const cluster = new SimClusterView(world, world.startMs, undefined, podClassesOf(world, policy.workloadClasses));
  const stepMs = world.stepSeconds * 1000;
  const intervalSteps = Math.max(1, Math.round(rebalance.intervalSeconds / world.stepSeconds));
  let spells: ReadonlyMap<string, HotSpell> = new Map();
  let vmSpells: ReadonlyMap<string, VmSpell> = new Map();
  let history: SpellHistory = EMPTY_SPELL_HISTORY;
  const nodeVmIds = world.vms.ids.slice(0, world.nodes.count);
  let evicted: PastEviction[] = [];
  return {
    ...base,
    name: "hvx+rebalance",
    bound(pod, node, step, atMs = world.startMs + step * stepMs) {
      base.bound?.(pod, node, step, atMs);
      cluster.bind(pod, node, atMs);
    },
    unbound(pod, node) {
      base.unbound?.(pod, node);
      cluster.unbind(pod, node);
    },
    evictAfterStep(step) {
      const nowMs = world.startMs + step * stepMs;
      const inventory = observedInventory(world, ring.visibleAt(step), state.vmHost, state.hostInMaintenance, nowMs);
      const hostsNext = nextHotSpells(spells, inventory, policy.thresholds, nowMs, rebalance.hysteresisPercent);
      const { maxMetricAgeSeconds } = policy.thresholds;
      const vmsNext = nextVmSpells(
        vmSpells,
        inventory,
        nodeVmIds,
        rebalance.vmReadyPercent,
        maxMetricAgeSeconds,
        nowMs,
        rebalance.hysteresisPercent,
      );
      history = {
        hostSeconds: withEnded(history.hostSeconds, endedSpellSeconds(spells, hostsNext, nowMs)),
        vmSeconds: withEnded(history.vmSeconds, endedSpellSeconds(vmSpells, vmsNext, nowMs)),
      };
      spells = hostsNext;
      vmSpells = vmsNext;
      if ((step + 1) % intervalSteps !== 0) return [];
      evicted = evicted.filter((e) => nowMs - e.atMs < HOUR_MS);
      const plan = chooseEvictions({
        inventory,
        cluster: cluster.current(nowMs),
        placement: policy,
        rebalance,
        spells,
        vmSpells,
        history,
        evicted,
        nowMs,
      });
      return plan.evictions.map((e) => {
        const pod = Number(e.pod.uid.slice("pod-".length));
        evicted.push({ uid: `${e.pod.uid}@${step}`, atMs: nowMs });
        return pod;
      });
    },
  };
}
