import { expect } from "chai";
import { buildWorld, type World } from "../../src/simulate/build-world.js";
import { HVX_EXTENDER_WEIGHT, hvxStrategy, type HvxDecision } from "../../src/simulate/hvx-strategy.js";
import { loadScenario } from "../../src/simulate/load-scenario.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { ObservationRing } from "../../src/simulate/observation-ring.js";
import { mulberry32 } from "../../src/random/prng.js";
import { productionPolicy } from "../../src/simulate/run-simulation.js";
import { RunState } from "../../src/simulate/run-state.js";
import { smallScenario } from "./fixtures.js";

/** Writes a sample for `step` in which host `hotHost`'s VMs wait `readyMs` per vCPU-sample. */
function observe(world: World, ring: ObservationRing, state: RunState, step: number, hotHosts: number[], readyMsPerVcpu: number): void {
  const obs = ring.writable(step, world.startMs + (step + 1) * 20_000);
  for (let v = 0; v < world.vms.count; v++) {
    const h = state.vmHost[v]!;
    obs.vmHost[v] = h;
    obs.vmReadyMs[v] = hotHosts.includes(h) ? readyMsPerVcpu * world.vms.vcpus[v]! : 0;
    obs.vmBalloonKB[v] = 0;
    obs.vmSwappedKB[v] = 0;
  }
  for (let h = 0; h < world.hosts.count; h++) {
    obs.hostCpuUsageFixed[h] = 3000;
    obs.hostMemUsageFixed[h] = 4000;
    obs.hostMemState[h] = 0;
  }
}

function setup(record?: (d: HvxDecision) => void) {
  const world = buildWorld(smallScenario());
  const state = new RunState(world);
  const ring = new ObservationRing(world, world.lagSteps);
  const strategy = hvxStrategy(
    { world, state, ring, rng: mulberry32(1), evictPod: () => undefined },
    productionPolicy(),
    record ? { record } : {},
  );
  return { world, state, ring, strategy };
}

/** One pod bound on every node but `free`, so the default profile's best node is `free` alone. */
function loadAllBut(state: RunState, free: number): void {
  let pod = 0;
  for (const n of ALL_NODES) if (n !== free) state.bind(pod++, n, 0);
}

const ALL_NODES = [0, 1, 2, 3, 4, 5, 6, 7];

describe("hvxStrategy (real filterNodes / prioritizeNodes)", () => {
  it("given host 0 hot on CPU ready (3000 ms per vCPU = 15 %), never places a pod on its node VMs", () => {
    const { world, state, ring, strategy } = setup();
    observe(world, ring, state, 0, [0], 3000);
    for (let p = 0; p < 20; p++) {
      const node = strategy.choose(p, ALL_NODES, 2);
      expect(world.vms.initialHost[node]).to.not.equal(0);
      state.bind(p, node, 2);
    }
  });

  it("given every host hot, leaves the pod pending (-1)", () => {
    const { world, state, ring, strategy } = setup();
    observe(world, ring, state, 0, [0, 1, 2, 3], 3000);
    expect(strategy.choose(0, ALL_NODES, 2)).to.equal(-1);
  });

  it("given a warm host (ready 6 %) and cool ones, prefers the cool hosts", () => {
    const { world, state, ring, strategy } = setup();
    observe(world, ring, state, 0, [1], 1200);
    for (let p = 0; p < 10; p++) expect(world.vms.initialHost[strategy.choose(p, ALL_NODES, 2)]).to.not.equal(1);
  });

  it("given no sample yet (start of the run), has no opinion: passes every node with equal scores, so the default profile's best node wins", () => {
    const decisions: HvxDecision[] = [];
    const { world, state, strategy } = setup((d) => decisions.push(d));
    loadAllBut(state, 5);
    expect(strategy.choose(10, ALL_NODES, 0)).to.equal(5);
    const [d] = decisions;
    expect(d!.observation).to.equal(undefined);
    expect(d!.passed).to.deep.equal(ALL_NODES.map((n) => world.nodes.names[n]));
    expect(d!.extenderScores).to.deep.equal(ALL_NODES.map(() => productionPolicy().scoring.unknownScore));
  });

  it("given no sample visible at that step, has no opinion and passes every node", () => {
    const decisions: HvxDecision[] = [];
    const { world, state, ring, strategy } = setup((d) => decisions.push(d));
    observe(world, ring, state, 0, [0, 1, 2, 3], 3000);
    loadAllBut(state, 2);
    // step 2 sees sample 0 (every host hot: nothing passes); step 10 would need sample 8, which was never written
    expect(strategy.choose(10, ALL_NODES, 2)).to.equal(-1);
    expect(strategy.choose(10, ALL_NODES, 10)).to.equal(2);
    expect(decisions[1]!.observation).to.equal(undefined);
    expect(decisions[1]!.passed).to.deep.equal(ALL_NODES.map((n) => world.nodes.names[n]));
    expect(new Set(decisions[1]!.extenderScores).size).to.equal(1);
  });
});

describe("hvxStrategy: predicted heat learnt from its own samples", () => {
  /** Host 1 hot (ready 15 %) for steps 0..9, then cool; each sample shown to the strategy as the run does. */
  function run(enabled: boolean) {
    const decisions: HvxDecision[] = [];
    const world = buildWorld(smallScenario());
    const state = new RunState(world);
    const ring = new ObservationRing(world, world.lagSteps);
    const policy = { ...productionPolicy(), prediction: { enabled, horizonHours: 24, filter: false } };
    const strategy = hvxStrategy({ world, state, ring, rng: mulberry32(1), evictPod: () => undefined }, policy, {
      record: (d) => decisions.push(d),
    });
    const last = 14;
    for (let step = 0; step <= last; step++) {
      observe(world, ring, state, step, step < 10 ? [1] : [], 3000);
      strategy.observed!(ring.writable(step, world.startMs + (step + 1) * 20_000));
    }
    const onHost1 = ALL_NODES.find((n) => world.vms.initialHost[n] === 1)!;
    loadAllBut(state, onHost1);
    // The decision sees the sample of step `last` (cool everywhere): ready 0 on host 1 now.
    const chosen = strategy.choose(10, ALL_NODES, last + 1 + world.lagSteps);
    return { world, chosen, onHost1, decision: decisions[decisions.length - 1]! };
  }

  it("given host 1 hot earlier this half hour and cool now, one day of history is not trusted: the present alone decides (issue 26 §2)", () => {
    const { chosen, onHost1, decision } = run(true);
    expect(decision.observation!.vmReadyMs.every((v) => v === 0)).to.equal(true);
    expect(decision.forecasts!.size).to.equal(0);
    expect(chosen).to.equal(onHost1);
  });

  it("given prediction disabled, the present alone decides: the default profile's preferred node on host 1 wins", () => {
    const { chosen, onHost1, decision } = run(false);
    expect(decision.forecasts).to.equal(undefined);
    expect(chosen).to.equal(onHost1);
  });
});

describe("hvxStrategy: what kube-scheduler receives", () => {
  it("given workload classes that mix (fractional adjustments), adds hvx's priorities as the integers kube-scheduler receives", () => {
    const path = new URL("../../../examples/scenarios/online-batch.yaml", import.meta.url).pathname;
    const world = buildWorld({ ...loadScenario(path), durationHours: 2 });
    const decisions: HvxDecision[] = [];
    simulateStrategy({ world, strategy: "hvx", seed: 1, policy: productionPolicy(), hvx: { record: (d) => decisions.push(d) } });
    const priorities = decisions.flatMap((d) => d.extenderScores);
    expect(priorities.length).to.be.greaterThan(1000);
    expect(priorities.filter((p) => !Number.isInteger(p) || p < 0 || p > 10)).to.deep.equal([]);
    for (const d of decisions.filter((d) => d.chosen !== undefined)) {
      const total = d.passed.map((_, i) => d.defaultScores[i]! + d.extenderScores[i]! * HVX_EXTENDER_WEIGHT * 10);
      expect(total[d.passed.indexOf(d.chosen!)], `pod ${d.pod}`).to.equal(Math.max(...total));
    }
  });
});
