import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { CoHostedReplicas } from "../../src/simulate/co-hosted-replicas.js";
import { RunState } from "../../src/simulate/run-state.js";
import { smallScenario } from "./fixtures.js";

describe("CoHostedReplicas", () => {
  // smallScenario: 4 hosts, 2 node VMs each (node n on host n mod 4: nodes 0 and 4 share host 0);
  // `web` bursts in a correlated way, `job` does not.
  const world = buildWorld(smallScenario());
  const podsOf = (workload: number) => [...world.pods.workload.keys()].filter((p) => world.pods.workload[p] === workload);
  const [web1, web2] = podsOf(0) as [number, number];
  const [job1] = podsOf(1) as [number];
  const coHosted = CoHostedReplicas.of(world)!;

  const cases: Array<{ name: string; bound: Array<[pod: number, node: number]>; readyPercent: Record<number, number>; want: number }> = [
    // web on nodes 0 and 4 (host 0); only node 0 is contended: its one pod counts, 1 x 20 s
    {
      name: "given two web replicas on two node VMs of one host, one contended, returns 20 s",
      bound: [
        [web1, 0],
        [web2, 4],
      ],
      readyPercent: { 0: 6 },
      want: 20,
    },
    {
      name: "given both of those node VMs contended, returns 40 s",
      bound: [
        [web1, 0],
        [web2, 4],
      ],
      readyPercent: { 0: 6, 4: 5 },
      want: 40,
    },
    {
      name: "given both replicas on the same node VM, returns 0 (spread over nodes, not a host rule, separates them)",
      bound: [
        [web1, 0],
        [web2, 0],
      ],
      readyPercent: { 0: 9 },
      want: 0,
    },
    {
      name: "given the replicas on different hosts, returns 0",
      bound: [
        [web1, 0],
        [web2, 1],
      ],
      readyPercent: { 0: 9, 1: 9 },
      want: 0,
    },
    {
      name: "given a web replica beside a job pod (no correlated bursts), returns 0",
      bound: [
        [web1, 0],
        [job1, 4],
      ],
      readyPercent: { 0: 9, 4: 9 },
      want: 0,
    },
    {
      name: "given ready below 5 % on both, returns 0",
      bound: [
        [web1, 0],
        [web2, 4],
      ],
      readyPercent: { 0: 4.9, 4: 4.9 },
      want: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const state = new RunState(world);
      for (const [pod, node] of c.bound) state.bind(pod, node, 0);
      const ready = new Float64Array(world.vms.count);
      for (const [n, r] of Object.entries(c.readyPercent)) ready[Number(n)] = r;
      expect(coHosted.contendedPodSeconds(state, ready, 5, 20)).to.equal(c.want);
      // the scratch is cleared: the same step counted again gives the same answer
      expect(coHosted.contendedPodSeconds(state, ready, 5, 20)).to.equal(c.want);
    });
  }

  it("given a DRS move that puts the second replica's node VM on the first's host, counts it from then on", () => {
    const state = new RunState(world);
    state.bind(web1, 0, 0);
    state.bind(web2, 1, 0);
    const ready = new Float64Array(world.vms.count).fill(6);
    expect(coHosted.contendedPodSeconds(state, ready, 5, 20)).to.equal(0);
    state.moveVm(1, 0);
    expect(coHosted.contendedPodSeconds(state, ready, 5, 20)).to.equal(40);
  });

  it("given a scenario without correlated bursts, returns no counter", () => {
    const s = smallScenario();
    const plain = { ...s, workloads: s.workloads.map((w) => ({ ...w, cpu: { ...w.cpu, burst: undefined } })) };
    expect(CoHostedReplicas.of(buildWorld(plain as typeof s))).to.equal(undefined);
  });
});
