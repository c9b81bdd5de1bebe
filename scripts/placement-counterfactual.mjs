#!/usr/bin/env node
// Counterfactual placements in `hvx simulate` (an analysis aid, not part of the report): one strategy places the pods
// (BASE, default hvx), but the pods of chosen workloads go where a plan says, and the run's contended pod-seconds are
// given as a share of the oracle's cut against `default` (the ratio of the mean cuts, as the report's across-seeds
// table has it). DRS off. A plan names, per workload, one of:
//   <strategy>-host  the host <strategy> gave the pod in its own run of the seed; BASE picks the node VM on it
//                    (BASE's whole choice when no node of that host is feasible then)
//   default          kube-scheduler's default profile alone picks the node (no hvx)
// Workloads the plan does not name are BASE's. `hosts=<strategy>-host` applies to every workload, and
// `nodes=<strategy>` swaps the roles: <strategy> picks the node VM on the host BASE gave the pod in BASE's own run.
// Build first (`npx tsc -p tsconfig.json`), then, e.g.:
//   node scripts/placement-counterfactual.mjs examples/scenarios/traced-neighbours.yaml overflow 1-10 hosts=oracle-host
//   node scripts/placement-counterfactual.mjs examples/scenarios/traced-neighbours.yaml overflow 1-3 api=oracle-host,batch=oracle-host
//   node scripts/placement-counterfactual.mjs examples/scenarios/traced-neighbours.yaml queueing 1-10 nodes=oracle
//   node scripts/placement-counterfactual.mjs examples/scenarios/traced-neighbours.yaml overflow 1-3 batch=default
// docs/diurnal-correlated-gap.md ("traced-neighbours") shows what it found.
import { dirname } from "node:path";
import { buildWorld } from "../dist/src/simulate/build-world.js";
import { DefaultProfile } from "../dist/src/simulate/default-strategy.js";
import { loadScenario } from "../dist/src/simulate/load-scenario.js";
import { loadTraces } from "../dist/src/simulate/load-traces.js";
import { productionPolicy } from "../dist/src/simulate/run-simulation.js";
import { simulateStrategy } from "../dist/src/simulate/simulate-strategy.js";
import { selectHost } from "../dist/src/simulate/strategy.js";

const [scenarioPath, physics = "overflow", seedsArg = "1-3", planArg = "hosts=oracle-host", base = "hvx"] = process.argv.slice(2);
if (!scenarioPath) {
  console.error("usage: node scripts/placement-counterfactual.mjs SCENARIO [overflow|queueing] [FIRST-LAST] [PLAN] [BASE]");
  process.exit(2);
}
const [first, last = first] = seedsArg.split("-").map(Number);
const seeds = Array.from({ length: last - first + 1 }, (_, i) => first + i);
const scenario = loadScenario(scenarioPath);
const world = buildWorld(scenario, loadTraces(scenario, dirname(scenarioPath)));
const workloads = world.scenario.workloads.map((w) => w.name);
const plan = new Map(planArg.split(",").map((kv) => kv.split("=")));
for (const key of plan.keys()) {
  if (key !== "hosts" && key !== "nodes" && !workloads.includes(key)) {
    console.error(`placement-counterfactual: no workload ${key} (${workloads.join(", ")})`);
    process.exit(2);
  }
}
const drs = { ...world.scenario.drs, enabled: false };
const policy = productionPolicy();
const run = (strategy, seed, wrap) => simulateStrategy({ world, strategy, seed, policy, physics, drs, wrap }).figures;

/** Each pod's host at its last binding in `strategy`'s own run of the seed. */
function hostsOf(strategy, seed) {
  const host = new Int32Array(world.pods.count).fill(-1);
  run(strategy, seed, (s, deps) => {
    const watched = Object.create(s);
    watched.bound = (p, n, step, atMs) => {
      host[p] = deps.state.vmHost[n];
      s.bound?.(p, n, step, atMs);
    };
    return watched;
  });
  return host;
}

function counterfactual(seed) {
  const nodesBy = plan.get("nodes");
  if (nodesBy !== undefined) {
    const host = hostsOf(base, seed);
    return run(nodesBy, seed, onHostOf(host));
  }
  const hostRuns = new Map();
  const hostsFrom = (value) => {
    const strategy = value.replace(/-host$/, "");
    if (!hostRuns.has(strategy)) hostRuns.set(strategy, hostsOf(strategy, seed));
    return hostRuns.get(strategy);
  };
  const planOf = (p) => plan.get(workloads[world.pods.workload[p]]) ?? plan.get("hosts");
  return run(base, seed, (s, deps) => {
    const watched = Object.create(s);
    const profile = new DefaultProfile(deps);
    watched.choose = (p, feasible, step, atMs) => {
      const how = planOf(p);
      if (how === undefined) return s.choose(p, feasible, step, atMs);
      if (how === "default") return selectHost(feasible, profile.scores(p, feasible), deps.rng);
      const host = hostsFrom(how)[p];
      const onHost = feasible.filter((n) => deps.state.vmHost[n] === host);
      return s.choose(p, onHost.length > 0 ? onHost : feasible, step, atMs);
    };
    return watched;
  });
}

/** A wrap that keeps the strategy's choice to the nodes of the pod's host in `host` (all nodes when none is feasible). */
function onHostOf(host) {
  return (s, deps) => {
    const watched = Object.create(s);
    watched.choose = (p, feasible, step, atMs) => {
      const onHost = feasible.filter((n) => deps.state.vmHost[n] === host[p]);
      return s.choose(p, onHost.length > 0 ? onHost : feasible, step, atMs);
    };
    return watched;
  };
}

const hours = (s) => (s / 3600).toFixed(1);
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const cuts = { base: [], counterfactual: [], oracle: [] };
console.log(`${world.scenario.name}, ${physics}, DRS off, seeds ${seedsArg}, base ${base}, plan ${planArg}; contended pod-hours`);
for (const seed of seeds) {
  const d = run("default", seed).contendedPodSeconds;
  const o = run("oracle", seed).contendedPodSeconds;
  const b = run(base, seed).contendedPodSeconds;
  const c = counterfactual(seed);
  cuts.base.push(1 - b / d);
  cuts.counterfactual.push(1 - c.contendedPodSeconds / d);
  cuts.oracle.push(1 - o / d);
  console.log(
    ` seed ${seed}: default ${hours(d)}, oracle ${hours(o)}, ${base} ${hours(b)}, counterfactual ${hours(c.contendedPodSeconds)}` +
      ` (saturated ${hours(c.saturatedPodSeconds)}, placed ${c.placedPods})`,
  );
}
const share = (xs) => ((mean(xs) / mean(cuts.oracle)) * 100).toFixed(1);
console.log(`share of the oracle's cut: ${base} ${share(cuts.base)} %, counterfactual ${share(cuts.counterfactual)} %`);
