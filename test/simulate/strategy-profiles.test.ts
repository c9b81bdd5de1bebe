import { expect } from "chai";
import { buildWorld, type World } from "../../src/simulate/build-world.js";
import { DefaultProfile, defaultNodeScore } from "../../src/simulate/default-strategy.js";
import { ObservationRing } from "../../src/simulate/observation-ring.js";
import { mulberry32 } from "../../src/random/prng.js";
import { RunState } from "../../src/simulate/run-state.js";
import type { StrategyDeps } from "../../src/simulate/strategy.js";
import { vmLoadAwareStrategy } from "../../src/simulate/vm-load-aware-strategy.js";
import { smallScenario } from "./fixtures.js";

function depsOf(world: World): StrategyDeps {
  return {
    world,
    state: new RunState(world),
    ring: new ObservationRing(world, world.lagSteps),
    rng: mulberry32(1),
    evictPod: () => undefined,
  };
}

/** First pod of the workload named `name` (index in world.pods). */
function podOf(world: World, name: string, k = 0): number {
  const w = world.scenario.workloads.findIndex((x) => x.name === name);
  let seen = 0;
  for (let p = 0; p < world.pods.count; p++) if (world.pods.workload[p] === w && seen++ === k) return p;
  throw new Error(`no pod ${k} of ${name}`);
}

describe("default profile: Fit + BalancedAllocation + 2 x PodTopologySpread", () => {
  it("given two siblings of a ReplicaSet pod on node 0, scores node 1 higher by the spread term alone", () => {
    const world = buildWorld(smallScenario());
    const deps = depsOf(world);
    deps.state.bind(podOf(world, "web", 1), 0, 0);
    deps.state.bind(podOf(world, "web", 2), 0, 0);
    const pod = podOf(world, "web", 3);
    const nodes = [0, 1, 2, 3, 4, 5, 6, 7];
    const scores = new DefaultProfile(deps).scores(pod, nodes);
    // 8 scored nodes: raw = round(2 x ln(10) + 2) = 7 on node 0, 2 elsewhere -> 100 x 2 / 7 = 28 and 100
    expect(scores[0]! - defaultNodeScore(deps, pod, 0)).to.equal(2 * 28);
    expect(scores[1]! - defaultNodeScore(deps, pod, 1)).to.equal(2 * 100);
  });

  it("given a Job's pod, adds no spread term (no default constraints for Jobs)", () => {
    const world = buildWorld(smallScenario());
    const deps = depsOf(world);
    const job = podOf(world, "job", 0);
    expect(world.pods.replicaSet[job]).to.equal(-1);
    deps.state.bind(podOf(world, "job", 1), 0, 0);
    const scores = new DefaultProfile(deps).scores(job, [0, 1]);
    expect(scores).to.deep.equal([defaultNodeScore(deps, job, 0), defaultNodeScore(deps, job, 1)]);
  });
});

describe("vm-load-aware: the metrics' age and window", () => {
  /** Feeds samples 0..9: node 0 idle up to step 6 then 95 % busy, node 1 the other way round. */
  function chooseAt(vmLoadAware: Record<string, unknown>): number {
    const world = buildWorld(smallScenario({ vmLoadAware }));
    const deps = depsOf(world);
    const strategy = vmLoadAwareStrategy(deps);
    const V = world.vms.count;
    for (let step = 0; step < 10; step++) {
      const util = new Float64Array(V);
      util[0] = step <= 6 ? 0 : 95;
      util[1] = step <= 6 ? 95 : 0;
      strategy.observed!({ step, vmUtilPercent: util } as never);
    }
    return strategy.choose(podOf(world, "web", 0), [0, 1], 10);
  }
  it("given fresh metrics (age 0), sees node 0 busy and picks node 1", () => expect(chooseAt({ metricsAgeSeconds: 0 })).to.equal(1));
  it("given the metrics-server default (60 s old), still sees node 0 idle and picks it", () => expect(chooseAt({})).to.equal(0));
  it("given a 200 s window ending 0 s ago, averages both phases (node 0: 3 of 10 samples busy) and picks node 0", () =>
    expect(chooseAt({ metricsAgeSeconds: 0, metricsWindowSeconds: 200 })).to.equal(0));
});
