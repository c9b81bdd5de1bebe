import type { World } from "./build-world.js";
import type { StrategyRuns } from "./run-simulation.js";

const RUN_TITLES = { "drs-off": "DRS off", "drs-on": "DRS on" } as const;

/**
 * The report's lines on rebalancing, one per DRS setting: `hvx+rebalance`'s evictions, the
 * contended pod-hours they removed for the evicted pods themselves, the whole difference to
 * `hvx` (same seed, same workload: the eviction is the only change) and the restarts' cost.
 */
export function rebalanceLines(world: World, runs: readonly StrategyRuns[]): string[] {
  const out: string[] = [];
  for (const run of runs) {
    const hvx = run.results.find((r) => r.strategy === "hvx")?.figures;
    const reb = run.results.find((r) => r.strategy === "hvx+rebalance")?.figures;
    if (!hvx || !reb) continue;
    const per100 = reb.podHours > 0 ? (reb.hvxEvictions / reb.podHours) * 100 : 0;
    const h = (podSeconds: number) => (podSeconds / 3600).toFixed(1);
    const fewer = hvx.contendedPodSeconds - reb.contendedPodSeconds;
    out.push(
      `- **Rebalancing, ${RUN_TITLES[run.key]}**: ${reb.hvxEvictions} evictions (${per100.toFixed(2)} per 100 pod-hours) removed ` +
        `${h(reb.rebalanceRemovedPodSeconds)} contended pod-hours of the evicted pods themselves; ` +
        `in all, ${h(Math.abs(fewer))} contended pod-hours ${fewer >= 0 ? "fewer" : "more"} than \`hvx\`; ` +
        `the restarts cost ${h(reb.hvxEvictions * world.scenario.restartSeconds)} pod-hours without running.`,
    );
  }
  return out;
}
