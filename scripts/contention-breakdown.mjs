#!/usr/bin/env node
// Where a strategy's contended pod-seconds come from in `hvx simulate` (an analysis aid, not part of
// the report): by hour of day, by the correlated bursts under way, by workload, by host, by the host's CPU usage
// at the time (and each host's mean usage while a burst is under way), by the hour
// the pod was placed, and per node VM at the end of the run (pods per workload, their CPU limits,
// contended pod-hours). Also how many of a host's node VMs are contended at once, by day of the run, by host kind
// (with / without non-Kubernetes VMs) and workload, by the length of the node VMs' contended spells, the pods per host
// and workload while a correlated burst of placed pods is under way, and, for the
// correlated-burst workloads, what the host looked like when hvx placed the pod: its sampled usage, hvx's estimate of
// the other VMs' load (usage minus the pods' expected demand) against their real load then and in the later bursts,
// and whether hvx judged the host cool. DRS off.
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
const bursty = new Set(world.scenario.workloads.flatMap((w, i) => ("burst" in w.cpu && w.cpu.burst?.correlated ? [i] : [])));
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
  const byDay = new Float64Array(Math.ceil(world.steps / Math.round(86400 / stepSeconds)));
  // [busy 0 / quiet 1][workload]
  const byKindWorkload = [new Float64Array(workloads.length), new Float64Array(workloads.length)];
  // Contended spells of a node VM (consecutive contended steps), pod-seconds by spell length: < 2, 2-10, 10-30, >= 30 min.
  const spellBands = [2, 10, 30, Infinity];
  const bySpell = new Float64Array(spellBands.length);
  const spellPodSeconds = new Float64Array(nodes.count);
  const spellSteps = new Int32Array(nodes.count);
  const closeSpell = (n) => {
    if (spellSteps[n] === 0) return;
    const minutes = (spellSteps[n] * stepSeconds) / 60;
    bySpell[spellBands.findIndex((b) => minutes < b)] += spellPodSeconds[n];
    spellSteps[n] = 0;
    spellPodSeconds[n] = 0;
  };
  // The correlated-burst workloads' placements: host, step, hvx's view then (sampled usage, estimated other load), cool or not.
  const placements = [];
  // Other (non-node) VMs' real CPU per host, cores: sum over steps while a burst is under way, and per step.
  const otherCores = new Float64Array(hosts.count);
  const otherBurstCores = new Float64Array(hosts.count);
  // Pods per host and workload while a burst of placed pods is under way (summed over those steps).
  const burstPods = Array.from({ length: hosts.count }, () => new Float64Array(workloads.length));
  let burstPodSteps = 0;
  let lastObs;
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
      if (bursty.has(pods.workload[p])) {
        const h = state.vmHost[n];
        const seen = lastObs === undefined ? undefined : lastObs.hostCpuUsageFixed[h] / 100;
        let podsMilli = 0;
        for (let m = 0; m < nodes.count; m++)
          if (state.vmHost[m] === h) for (const q of state.nodePods[m]) if (q !== p) podsMilli += pods.origCpuMilli[q];
        const estimate = seen === undefined ? undefined : Math.max(0, (seen / 100) * hosts.cores[h] - podsMilli / 1000);
        placements.push({ pod: p, host: h, step, seen, estimate, realNow: otherCores[h], cool: decisionCool.get(p) });
      }
      strategy.bound?.(p, n, step, atMs);
    };
    watched.observed = (obs) => {
      strategy.observed?.(obs);
      usage.advance(obs.step);
      lastObs = obs;
      otherCores.fill(0);
      for (let v = nodes.count; v < vms.count; v++) otherCores[obs.vmHost[v]] += (obs.vmUtilPercent[v] / 100) * vms.vcpus[v];
      const bursting = workloads.filter((_, w) => usage.workloadBurst[w] > 0).join("+") || "none";
      const hour = Math.floor((startHour + (obs.step * stepSeconds) / 3600) % 24);
      const perHost = new Map();
      if (bursting !== "none") {
        burstSteps++;
        for (let h = 0; h < hosts.count; h++) burstUsage[h] += obs.hostCpuUsageFixed[h] / 100;
        for (let h = 0; h < hosts.count; h++) otherBurstCores[h] += otherCores[h];
        const placedBursting = state.nodePods.some((onNode) => onNode.some((p) => usage.workloadBurst[pods.workload[p]] > 0));
        if (placedBursting) {
          burstPodSteps++;
          for (let n = 0; n < nodes.count; n++) for (const p of state.nodePods[n]) burstPods[state.vmHost[n]][pods.workload[p]]++;
        }
        for (const pl of placements) if (obs.step > pl.step) (pl.burstOther ??= []).push(otherCores[pl.host]);
      }
      for (let n = 0; n < nodes.count; n++) {
        const h = state.vmHost[n];
        const counts = perHost.get(h) ?? { vms: 0, contended: 0 };
        counts.vms++;
        perHost.set(h, counts);
        const readyPercent = (obs.vmReadyMs[n] / (stepSeconds * 1000 * vms.vcpus[n])) * 100;
        if (readyPercent < CONTENDED_READY_PERCENT) {
          closeSpell(n);
          continue;
        }
        counts.contended++;
        const podSeconds = state.nodePods[n].length * stepSeconds;
        byDay[Math.floor((obs.step * stepSeconds) / 86400)] += podSeconds;
        spellSteps[n]++;
        spellPodSeconds[n] += podSeconds;
        byHour[hour] += podSeconds;
        byHost[h] += podSeconds;
        byUsageBand[Math.min(10, Math.floor(obs.hostCpuUsageFixed[h] / 1000))] += podSeconds;
        byNode[n] += podSeconds;
        byBurst.set(bursting, (byBurst.get(bursting) ?? 0) + podSeconds);
        for (const p of state.nodePods[n]) {
          byWorkload[pods.workload[p]] += stepSeconds;
          byKindWorkload[busyHosts.has(h) ? 0 : 1][pods.workload[p]] += stepSeconds;
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
  const decisionCool = new Map();
  const record = (d) => {
    const i = d.passed.indexOf(d.chosen);
    if (i >= 0) decisionCool.set(d.pod, d.extenderScores[i] >= 5);
  };
  const run = simulateStrategy({
    hvx: { record },
    world,
    strategy: name,
    seed,
    policy: productionPolicy(),
    physics,
    drs: { ...world.scenario.drs, enabled: false },
    wrap,
  });
  for (let n = 0; n < nodes.count; n++) closeSpell(n);
  const f = run.figures;
  console.log(`\n== ${name}: contended ${hours(f.contendedPodSeconds)}, saturated ${hours(f.saturatedPodSeconds)}`);
  console.log(
    ` host-steps with a contended node VM ${hostSteps}: node VMs contended at once ${(contendedVms / Math.max(1, hostSteps)).toFixed(2)} on average, every one of the host's in ${everyNodeVm}`,
  );
  console.log(` by hour of day: ${listed(byHour)}`);
  console.log(` by correlated burst under way: ${[...byBurst].map(([k, v]) => `${k} ${hours(v)}`).join(", ")}`);
  console.log(` by day of the run: ${listed(byDay, (d) => d + 1)}`);
  console.log(` by workload: ${listed(byWorkload, (w) => workloads[w])}`);
  console.log(
    ` by workload on hosts with other VMs / without: ${listed(byKindWorkload[0], (w) => workloads[w])} / ${listed(byKindWorkload[1], (w) => workloads[w])}`,
  );
  console.log(` by the node VM's contended spell (minutes): ${listed(bySpell, (b) => ["<2", "2-10", "10-30", ">=30"][b])}`);
  console.log(` by host: ${listed(byHost, hostLabel)}`);
  console.log(` by host CPU usage at the time (band start, %): ${listed(byUsageBand, (b) => b * 10)}`);
  console.log(
    ` host CPU usage while a correlated burst is under way (mean %): ${[...burstUsage].map((u, h) => `${hostLabel(h)}:${(u / Math.max(1, burstSteps)).toFixed(0)}`).join(" ")}`,
  );
  console.log(
    ` pods per host while a correlated burst of placed pods is under way (mean, ${workloads.join("/")}): ${burstPods.map((r, h) => `${hostLabel(h)}:${[...r].map((x) => (x / Math.max(1, burstPodSteps)).toFixed(1)).join("/")}`).join(" ")}`,
  );
  console.log(` by hour placed: ${listed(byPlacedHour)}`);
  const mean = (xs) => (xs.length > 0 ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  for (const [label, inKind] of [
    ["with other VMs", true],
    ["without", false],
  ]) {
    const ps = placements.filter((pl) => busyHosts.has(pl.host) === inKind);
    if (ps.length === 0) continue;
    const cool = ps.filter((pl) => pl.cool === true).length;
    const known = ps.filter((pl) => pl.cool !== undefined).length;
    console.log(
      ` correlated-burst pods placed on hosts ${label}: ${ps.length}` +
        (known > 0 ? `, judged cool ${((cool / known) * 100).toFixed(0)} %` : "") +
        `; sampled usage then ${mean(ps.filter((pl) => pl.seen !== undefined).map((pl) => pl.seen)).toFixed(0)} %` +
        `; other VMs' load, cores: hvx's estimate ${mean(ps.filter((pl) => pl.estimate !== undefined).map((pl) => pl.estimate)).toFixed(1)}` +
        `, real then ${mean(ps.map((pl) => pl.realNow)).toFixed(1)}, real in the later bursts ${mean(ps.map((pl) => mean(pl.burstOther ?? []))).toFixed(1)}`,
    );
  }
  console.log(
    ` other VMs' real load while a burst is under way (mean cores): ${[...otherBurstCores].map((c, h) => `${hostLabel(h)}:${(c / Math.max(1, burstSteps)).toFixed(1)}`).join(" ")}`,
  );
  console.log(` node VMs at the end: pods per workload (${workloads.join("/")}), CPU limits of the correlated-burst workloads, contended`);
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
