import { expect } from "chai";
import type { ClusterView, PodView } from "../../src/model/cluster.js";
import { mayPreempt } from "../../src/placement/may-preempt.js";
import { clusterViewOf, nodeView, podView } from "../fixtures/cluster.js";

function running(priority: number | undefined): PodView {
  return podView({ nodeName: "n1", eviction: { ownerKinds: [], localStorage: false, ...(priority === undefined ? {} : { priority }) } });
}

describe("mayPreempt", () => {
  const view = (...pods: PodView[]): ClusterView => clusterViewOf([nodeView({ name: "n1" })], pods);
  const cases: Array<{
    name: string;
    pod: { priority?: number; preemptionPolicy?: string };
    view: ClusterView | undefined;
    want: boolean;
  }> = [
    {
      name: "given priority 1000 above the lowest running 10, returns true",
      pod: { priority: 1000 },
      view: view(running(10), running(2000)),
      want: true,
    },
    {
      name: "given preemptionPolicy Never, returns false whatever the priority",
      pod: { priority: 1000, preemptionPolicy: "Never" },
      view: view(running(10)),
      want: false,
    },
    {
      name: "given preemptionPolicy PreemptLowerPriority, returns true",
      pod: { priority: 1000, preemptionPolicy: "PreemptLowerPriority" },
      view: view(running(10)),
      want: true,
    },
    { name: "given priority equal to the lowest running, returns false", pod: { priority: 10 }, view: view(running(10)), want: false },
    // a running pod without spec.priority counts as 0, so priority 5 is above it
    {
      name: "given a running pod without priority, counts it as 0",
      pod: { priority: 5 },
      view: view(running(undefined), running(10)),
      want: true,
    },
    { name: "given a pod without priority among pods at 0, returns false", pod: {}, view: view(running(0)), want: false },
    { name: "given no running pod, returns false", pod: { priority: 1000 }, view: view(), want: false },
    { name: "given no cluster view, returns false (no opinion)", pod: { priority: 1000 }, view: undefined, want: false },
  ];
  for (const c of cases) it(c.name, () => expect(mayPreempt(c.pod, c.view)).to.equal(c.want));
});
