import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { DrsRunner } from "../../src/simulate/drs-runner.js";
import { drsSettingsFor, productionPolicy } from "../../src/simulate/run-simulation.js";
import { RunState } from "../../src/simulate/run-state.js";
import { SimClusterView } from "../../src/simulate/sim-cluster-view.js";
import { simulateStrategy } from "../../src/simulate/simulate-strategy.js";
import { StepPhysics } from "../../src/simulate/step-physics.js";
import { ObservationRing } from "../../src/simulate/observation-ring.js";
import { UsageSeries } from "../../src/simulate/usage-series.js";
import { smallScenario } from "./fixtures.js";

describe("DRS in a run", () => {
  // small scenario: two busy 8-vCPU VMs on host 0 (90 %), node VMs elsewhere half idle
  const world = buildWorld(smallScenario());

  it("with DRS on, vMotions VMs off the busy host at interval boundaries; with DRS off, none", () => {
    const policy = productionPolicy();
    const off = simulateStrategy({ world, strategy: "default", seed: 1, policy, drs: drsSettingsFor(world.scenario, false) });
    const on = simulateStrategy({ world, strategy: "default", seed: 1, policy, drs: drsSettingsFor(world.scenario, true) });
    expect(off.figures.vmotions).to.equal(0);
    expect(on.figures.vmotions).to.be.greaterThan(0);
    expect(on.figures.vmotions).to.be.at.most(world.scenario.drs.maxMovesPerHostPerPass * world.hosts.count * Math.floor(world.steps / 15));
  });

  it("balances only at interval boundaries, on the interval's average demand, and the sample records the new host", () => {
    const state = new RunState(world);
    const runner = new DrsRunner(world, drsSettingsFor(world.scenario, true));
    const physics = new StepPhysics(world);
    const usage = new UsageSeries(world, 1);
    const ring = new ObservationRing(world, world.lagSteps);
    expect(runner.intervalSteps).to.equal(15); // 5 min of 20 s steps
    let moves: ReturnType<DrsRunner["maybeBalance"]> = [];
    for (let s = 0; s <= 15; s++) {
      const now = runner.maybeBalance(state, s);
      if (s < 15) expect(now, `step ${s}`).to.deep.equal([]);
      else moves = now;
      usage.advance(s);
      physics.run(state, usage, ring.writable(s, world.startMs + (s + 1) * 20_000), s);
      runner.record(physics);
    }
    expect(moves.length).to.be.greaterThan(0);
    for (const m of moves) expect(state.vmHost[m.vm]).to.equal(m.to);
    // the next sample (what hvx polls) says where each VM ran
    usage.advance(16);
    const obs = ring.writable(16, world.startMs + 17 * 20_000);
    physics.run(state, usage, obs, 16);
    for (const m of moves) expect(obs.vmHost[m.vm]).to.equal(m.to);
  });
});

describe("hvx's cluster view and the bind latency", () => {
  const world = buildWorld(smallScenario({ bindLatencySeconds: 2 }));
  const t0 = world.startMs + 60_000;

  it("shows a bound pod only `bindLatencySeconds` after the binding, with that time as its binding time", () => {
    const view = new SimClusterView(world, world.startMs);
    view.bind(0, 3, t0);
    const pods = (at: number) => view.current(at).podsByNode.get(world.nodes.names[3]!) ?? [];
    expect(pods(t0)).to.deep.equal([]);
    expect(pods(t0 + 1999)).to.deep.equal([]);
    expect(pods(t0 + 2000).map((p) => [p.uid, p.boundAtMs])).to.deep.equal([["pod-0", t0 + 2000]]);
  });

  it("with a latency of 0, shows it at once; a pod that leaves before it is seen never shows", () => {
    const instant = new SimClusterView(buildWorld(smallScenario({ bindLatencySeconds: 0 })), world.startMs);
    instant.bind(0, 1, t0);
    expect(
      instant
        .current(t0)
        .podsByNode.get(world.nodes.names[1]!)
        ?.map((p) => p.uid),
    ).to.deep.equal(["pod-0"]);
    const lagging = new SimClusterView(world, world.startMs);
    lagging.bind(1, 2, t0);
    lagging.unbind(1, 2);
    expect(lagging.current(t0 + 5000).podsByNode.get(world.nodes.names[2]!) ?? []).to.deep.equal([]);
  });
});

describe("evictPod (the one way a strategy evicts)", () => {
  it("takes the pod off its node, counts it in hvxEvictions and requeues it restartSeconds later", () => {
    const world = buildWorld(smallScenario({ durationHours: 1 }));
    let evictedAt = -1;
    let pod = -1;
    const result = simulateStrategy({
      world,
      strategy: "default",
      seed: 1,
      policy: productionPolicy(),
      drs: drsSettingsFor(world.scenario, false),
      // after the first binding, evict that pod once through the run's deps
      wrap: (inner, deps) => ({
        ...inner,
        bound(p: number, _node: number, step: number) {
          if (evictedAt >= 0) return;
          evictedAt = step;
          pod = p;
          deps.evictPod(p, step, 30);
          expect(deps.state.podNode[p]).to.equal(-1);
          expect(deps.state.podNextTry[p]).to.equal(step + 2); // 30 s rounded up to whole 20 s steps
        },
      }),
    });
    expect(pod).to.be.at.least(0);
    expect(result.figures.hvxEvictions).to.equal(1);
    expect(result.figures.bindings).to.equal(result.figures.placedPods + 1);
  });
});

describe("a burst of replicas within the bind latency (the blind window)", () => {
  const base = smallScenario();
  const world = buildWorld(
    smallScenario({
      bindLatencySeconds: 2,
      noisyVms: [],
      workloads: [{ ...base.workloads[0]!, replicas: 10, arrival: { startMinute: 2, ratePerSecond: 100 } }],
    }),
  );
  /** Replicas of the burst each hvx decision saw in its cluster view, in decision order. */
  const seen = (inFlightLedger: boolean): number[] => {
    const out: number[] = [];
    simulateStrategy({
      world,
      strategy: "hvx",
      seed: 1,
      policy: productionPolicy(),
      drs: drsSettingsFor(world.scenario, false),
      hvx: {
        inFlightLedger,
        record: (d) => {
          let n = 0;
          for (const pods of d.cluster!.view.podsByNode.values()) n += pods.filter((p) => p.ownerKey === "ReplicaSet/default/web").length;
          out.push(n);
        },
      },
    });
    return out.slice(0, 10);
  };

  it("without the in-flight ledger, every decision of the burst sees none of the others", () => {
    expect(seen(false)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("with it, the k-th decision counts the k pods hvx answered for before", () => {
    expect(seen(true)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});
