import { expect } from "chai";
import { ownerKeyOf, toPodView, type PodWire } from "../../src/cluster/to-pod-view.js";

const defaults = { cpuMilli: 100, memoryBytes: 1 };
const FIRST_SEEN = Date.parse("2026-11-29T12:00:00Z");

function pod(extra: { nodeName?: string; created?: string | Date; scheduled?: string | Date; scheduledStatus?: string; phase?: string }): PodWire {
  const conditions = extra.scheduled ? [{ type: "PodScheduled", status: extra.scheduledStatus ?? "True", lastTransitionTime: extra.scheduled }] : [];
  const spec: PodWire["spec"] = extra.nodeName ? { nodeName: extra.nodeName, containers: [] } : { containers: [] };
  return {
    metadata: { namespace: "ns", name: "p", uid: "u1", ...(extra.created ? { creationTimestamp: extra.created } : {}) },
    spec,
    status: { phase: extra.phase ?? "Running", conditions },
  };
}

describe("toPodView binding time", () => {
  const cases: Array<{ name: string; pod: PodWire; want: number | undefined }> = [
    {
      name: "given PodScheduled True, uses its lastTransitionTime",
      pod: pod({ nodeName: "n1", created: "2026-11-29T09:00:00Z", scheduled: "2026-11-29T09:00:05Z" }),
      want: Date.parse("2026-11-29T09:00:05Z"),
    },
    {
      name: "given the condition as a Date (deserialized list), uses it",
      pod: pod({ nodeName: "n1", scheduled: new Date("2026-11-29T09:00:07Z") }),
      want: Date.parse("2026-11-29T09:00:07Z"),
    },
    {
      name: "given no PodScheduled condition, uses the creation time",
      pod: pod({ nodeName: "n1", created: "2026-11-29T09:00:00Z" }),
      want: Date.parse("2026-11-29T09:00:00Z"),
    },
    {
      name: "given PodScheduled False, falls back to the creation time",
      pod: pod({ nodeName: "n1", created: "2026-11-29T09:00:00Z", scheduled: "2026-11-29T09:30:00Z", scheduledStatus: "False" }),
      want: Date.parse("2026-11-29T09:00:00Z"),
    },
    { name: "given neither, uses when hvx first saw it bound", pod: pod({ nodeName: "n1" }), want: FIRST_SEEN },
    { name: "given an unscheduled pod, has no binding time", pod: pod({ created: "2026-11-29T09:00:00Z" }), want: undefined },
  ];
  for (const t of cases) {
    it(t.name, () => expect(toPodView(t.pod, defaults, FIRST_SEEN).boundAtMs).to.equal(t.want));
  }

  it("given phase Succeeded or Failed, marks the pod terminal", () => {
    expect(toPodView(pod({ nodeName: "n", phase: "Succeeded" }), defaults, 0).terminal).to.equal(true);
    expect(toPodView(pod({ nodeName: "n", phase: "Failed" }), defaults, 0).terminal).to.equal(true);
    expect(toPodView(pod({ nodeName: "n", phase: "Running" }), defaults, 0).terminal).to.equal(false);
  });

  it("given a bad quantity, reports it with the pod's name instead of throwing", () => {
    const problems: string[] = [];
    const p: PodWire = { metadata: { namespace: "ns", name: "bad" }, spec: { containers: [{ name: "app", resources: { requests: { cpu: "1x" } } }] } };
    const view = toPodView(p, defaults, 0, problems);
    expect(view.requests.cpuMilli).to.equal(0);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.contain("pod ns/bad");
  });
});

describe("ownerKeyOf", () => {
  const cases: Array<{ name: string; meta: NonNullable<PodWire["metadata"]>; want: string | undefined }> = [
    { name: "given a ReplicaSet controller, keys by it", meta: { namespace: "a", ownerReferences: [{ kind: "ReplicaSet", name: "web-7d9", controller: true }] }, want: "ReplicaSet/a/web-7d9" },
    { name: "given a StatefulSet, keys by it", meta: { namespace: "a", ownerReferences: [{ kind: "StatefulSet", name: "db", controller: true }] }, want: "StatefulSet/a/db" },
    { name: "given a Job, keys by it", meta: { namespace: "a", ownerReferences: [{ kind: "Job", name: "batch", controller: true }] }, want: "Job/a/batch" },
    {
      name: "given a DaemonSet owner and an app label, keys by the label",
      meta: { namespace: "a", labels: { "app.kubernetes.io/name": "agent" }, ownerReferences: [{ kind: "DaemonSet", name: "agent", controller: true }] },
      want: "app/a/agent",
    },
    { name: "given nothing, has no key", meta: { namespace: "a" }, want: undefined },
  ];
  for (const t of cases) it(t.name, () => expect(ownerKeyOf({ metadata: t.meta })).to.equal(t.want));
});
