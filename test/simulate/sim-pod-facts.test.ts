import { expect } from "chai";
import { buildWorld } from "../../src/simulate/build-world.js";
import { controllerKindOf, podClassesOf, workloadFactsOf } from "../../src/simulate/sim-pod-facts.js";
import { DEFAULT_WORKLOAD_CLASSIFICATION } from "../../src/placement/workload-class.js";
import { smallScenario } from "./fixtures.js";

const base = smallScenario();
const [web, job] = base.workloads as [(typeof base.workloads)[0], (typeof base.workloads)[0]];
const world = buildWorld(
  smallScenario({
    workloads: [
      { ...web, name: "checkout", replicas: 2, labels: { "hvx.io/workload-class": "online" } },
      { ...web, name: "search", replicas: 2, priority: 1_000_000 },
      { ...web, name: "cache", replicas: 2, cpuRequestMilli: 2000, memoryRequestMiB: 1024 },
      { ...job, name: "etl", replicas: 2 },
    ],
  }),
);
const firstOf = (workload: string) => world.pods.names.findIndex((n) => n.startsWith(`${workload}-`));

describe("the twin's pods as the workload-class rules see them", () => {
  it("given a repeating workload's pod, returns a Job controller; else a ReplicaSet", () => {
    expect(controllerKindOf(world, firstOf("etl"))).to.equal("Job");
    expect(controllerKindOf(world, firstOf("checkout"))).to.equal("ReplicaSet");
  });

  it("given requests equal to limits, returns Guaranteed; else Burstable (limits are always set)", () => {
    expect(workloadFactsOf(world, firstOf("cache")).qosClass).to.equal("Guaranteed");
    expect(workloadFactsOf(world, firstOf("checkout")).qosClass).to.equal("Burstable");
  });

  it("given the default classification, returns online by label and by priority, batch for the Job, none for the rest", () => {
    const classes = podClassesOf(world);
    expect(["checkout", "search", "cache", "etl"].map((w) => classes[firstOf(w)])).to.deep.equal(["online", "online", undefined, "batch"]);
  });

  it("given the same world and classification twice, classifies once (the same array)", () =>
    expect(podClassesOf(world, DEFAULT_WORKLOAD_CLASSIFICATION)).to.equal(podClassesOf(world, DEFAULT_WORKLOAD_CLASSIFICATION)));
});
