#!/usr/bin/env node
// Where a strategy's contended pod-seconds come from in `hvx simulate` (an analysis aid, not part of
// the report): by hour of day, by the correlated bursts under way, by workload, by host, by the host's CPU usage
// at the time (and each host's mean usage while a burst is under way), by the hour
// the pod was placed, and per node VM at the end of the run (pods per workload, their CPU limits,
// contended pod-hours). Also how many of a host's node VMs are contended at once. DRS off.
// Build first (`npx tsc -p tsconfig.json`), then:
//   node scripts/contention-breakdown.mjs examples/scenarios/diurnal-correlated.yaml 1 overflow default,hvx,oracle
// docs/diurnal-correlated-gap.md shows what it found.
import { dirname } from "node:path";
import { buildWorld } from "../dist/src/simulate/build-world.js";
import { CONTENDED_READY_PERCENT } from "../dist/src/simulate/run-tally.js";
import { loadScenario } from "../dist/src/simulate/load-scenario.js";
import { loadTraces } from "../dist/src/simulate/load-traces.js";
import { productionPolicy } from "../dist/src/simulate/run-simulation.js";
import { simulateStrategy } from "../dist/src/simulate/simulate-strategy.js";
import { UsageSeries } from "../dist/src/simulate/usage-series.js";

const [scenarioPath, seedArg = "1", physics = "overflow", list = "default,hvx,oracle"] = process.argv.slice(2);
if (!scenarioPath) {
  console.error("usage: node scripts/contention-breakdown.mjs SCENARIO [SEED] [overflow|queueing] [STRATEGY,...]");
  process.exit(2);
}
const seed = Number(seedArg);
const scenario = loadScenario(scenarioPath);
const world = buildWorld(scenario, loadTraces(scenario, dirname(scenarioPath)));
const { pods, nodes, hosts, vms, stepSeconds } = world;
const workloads = world.scenario.workloads.map((w) => w.name);
const busyHosts = new Set(world.scenario.noisyVms.flatMap((g) => g.hosts));
const startHour = new Date(world.startMs).getUTCHours();
const hours = (s) => (s / 3600).toFixed(1);
const listed = (values, label = (i) => i) =>
  [...values]
    .map((v, i) => [label(i), v])
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k}:${hours(v)}`)
    .join(" ");
const hostLabel = (h) => `${h}${busyHosts.has(h) ? "*" : ""}`;
console.log(`${world.scenario.name}, seed ${seed}, ${physics}, DRS off; * = host with non-Kubernetes VMs; pod-hours`);

for (const name of list.split(",")) {
  const byHour = new Float64Array(24);
  const byPlacedHour = new Float64Array(24);
  const byWorkload = new Float64Array(workloads.length);
  const byHost = new Float64Array(hosts.count);
  const byNode = new Float64Array(nodes.count);
  const byBurst = new Map();
  // Contended pod-seconds by the host's CPU usage at the time (sample), in bands of 10 %; each host's usage while a burst is under way.
  const byUsageBand = new Float64Array(11);
  const burstUsage = new Float64Array(hosts.count);
  let burstSteps = 0;
  const placedStep = new Int32Array(pods.count).fill(-1);
  // The strategies' usage is a function of (seed, pod, step) alone: a second series in step shows which bursts are under way
  // (its `workloadBurst` is private in TypeScript: an analysis aid may read it, production code may not).
  const usage = new UsageSeries(world, seed);
  let hostSteps = 0;
  let everyNodeVm = 0;
  let contendedVms = 0;
  let state;
  const wrap = (strategy, deps) => {
    state = deps.state;
    const watched = Object.create(strategy);
    watched.bound = (p, n, step, atMs) => {
      placedStep[p] = step;
      strategy.bound?.(p, n, step, atMs);
    };
    watched.observed = (obs) => {
      strategy.observed?.(obs);
      usage.advance(obs.step);
      const bursting = workloads.filter((_, w) => usage.workloadBurst[w] > 0).join("+") || "none";
      const hour = Math.floor((startHour + (obs.step * stepSeconds) / 3600) % 24);
      const perHost = new Map();
      if (bursting !== "none") {
        burstSteps++;
        for (let h = 0; h < hosts.count; h++) burstUsage[h] += obs.hostCpuUsageFixed[h] / 100;
      }
      for (let n = 0; n < nodes.count; n++) {
        const h = state.vmHost[n];
        const counts = perHost.get(h) ?? { vms: 0, contended: 0 };
        counts.vms++;
        perHost.set(h, counts);
        const readyPercent = (obs.vmReadyMs[n] / (stepSeconds * 1000 * vms.vcpus[n])) * 100;
        if (readyPercent < CONTENDED_READY_PERCENT) continue;
        counts.contended++;
        const podSeconds = state.nodePods[n].length * stepSeconds;
        byHour[hour] += podSeconds;
        byHost[h] += podSeconds;
        byUsageBand[Math.min(10, Math.floor(obs.hostCpuUsageFixed[h] / 1000))] += podSeconds;
        byNode[n] += podSeconds;
        byBurst.set(bursting, (byBurst.get(bursting) ?? 0) + podSeconds);
        for (const p of state.nodePods[n]) {
          byWorkload[pods.workload[p]] += stepSeconds;
          byPlacedHour[Math.floor((startHour + (placedStep[p] * stepSeconds) / 3600) % 24)] += stepSeconds;
        }
      }
      for (const c of perHost.values()) {
        if (c.contended === 0) continue;
        hostSteps++;
        contendedVms += c.contended;
        if (c.contended === c.vms) everyNodeVm++;
      }
    };
    return watched;
  };
  const run = simulateStrategy({
    world,
    strategy: name,
    seed,
    policy: productionPolicy(),
    physics,
    drs: { ...world.scenario.drs, enabled: false },
    wrap,
  });
  const f = run.figures;
  console.log(`\n== ${name}: contended ${hours(f.contendedPodSeconds)}, saturated ${hours(f.saturatedPodSeconds)}`);
  console.log(
    ` host-steps with a contended node VM ${hostSteps}: node VMs contended at once ${(contendedVms / Math.max(1, hostSteps)).toFixed(2)} on average, every one of the host's in ${everyNodeVm}`,
  );
  console.log(` by hour of day: ${listed(byHour)}`);
  console.log(` by correlated burst under way: ${[...byBurst].map(([k, v]) => `${k} ${hours(v)}`).join(", ")}`);
  console.log(` by workload: ${listed(byWorkload, (w) => workloads[w])}`);
  console.log(` by host: ${listed(byHost, hostLabel)}`);
  console.log(` by host CPU usage at the time (band start, %): ${listed(byUsageBand, (b) => b * 10)}`);
  console.log(
    ` host CPU usage while a correlated burst is under way (mean %): ${[...burstUsage].map((u, h) => `${hostLabel(h)}:${(u / Math.max(1, burstSteps)).toFixed(0)}`).join(" ")}`,
  );
  console.log(` by hour placed: ${listed(byPlacedHour)}`);
  console.log(` node VMs at the end: pods per workload (${workloads.join("/")}), CPU limits of the correlated-burst workloads, contended`);
  const bursty = new Set(world.scenario.workloads.flatMap((w, i) => ("burst" in w.cpu && w.cpu.burst?.correlated ? [i] : [])));
  for (let h = 0; h < hosts.count; h++) {
    const cells = [];
    for (let n = 0; n < nodes.count; n++) {
      if (state.vmHost[n] !== h) continue;
      const counts = new Array(workloads.length).fill(0);
      let burstLimitsMilli = 0;
      for (const p of state.nodePods[n]) {
        counts[pods.workload[p]]++;
        if (bursty.has(pods.workload[p])) burstLimitsMilli += pods.limCpuMilli[p];
      }
      cells.push(`${nodes.names[n]} ${counts.join("/")} ${(burstLimitsMilli / 1000).toFixed(0)}c ${hours(byNode[n])}`);
    }
    console.log(`  host ${hostLabel(h)}: ${cells.join(" | ")}`);
  }
}
