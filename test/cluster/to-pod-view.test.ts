import { expect } from "chai";
import { evictionFactsOf, ownerKeyOf, toPodView, type PodWire } from "../../src/cluster/to-pod-view.js";
import type { PodEvictionFacts, WorkloadClass } from "../../src/model/cluster.js";
import { DEFAULT_WORKLOAD_CLASSIFICATION } from "../../src/placement/workload-class.js";

const defaults = { cpuMilli: 100, memoryBytes: 1 };
const FIRST_SEEN = Date.parse("2026-11-29T12:00:00Z");

function pod(extra: {
  nodeName?: string;
  created?: string | Date;
  scheduled?: string | Date;
  scheduledStatus?: string;
  phase?: string;
}): PodWire {
  const conditions = extra.scheduled
    ? [{ type: "PodScheduled", status: extra.scheduledStatus ?? "True", lastTransitionTime: extra.scheduled }]
    : [];
  const spec: PodWire["spec"] = extra.nodeName ? { nodeName: extra.nodeName, containers: [] } : { containers: [] };
  return {
    metadata: { namespace: "ns", name: "p", uid: "u1", ...(extra.created ? { creationTimestamp: extra.created } : {}) },
    spec,
    status: { phase: extra.phase ?? "Running", conditions },
  };
}

describe("toPodView binding time (one clock: hvx's own)", () => {
  const cases: Array<{ name: string; pod: PodWire; firstSeen: number | undefined; want: number | undefined }> = [
    {
      name: "given PodScheduled and creation times from the API server, ignores them: the binding time is when hvx first saw the pod bound",
      pod: pod({ nodeName: "n1", created: "2026-11-29T09:00:00Z", scheduled: "2026-11-29T09:00:05Z" }),
      firstSeen: FIRST_SEEN,
      want: FIRST_SEEN,
    },
    {
      name: "given a condition as a Date (deserialized list), still ignores it",
      pod: pod({ nodeName: "n1", scheduled: new Date("2026-11-29T09:00:07Z") }),
      firstSeen: FIRST_SEEN,
      want: FIRST_SEEN,
    },
    {
      name: "given a pod already bound when listed (no first-seen time), has no binding time: not a new binding",
      pod: pod({ nodeName: "n1", created: "2026-11-29T09:00:00Z", scheduled: "2026-11-29T09:00:05Z" }),
      firstSeen: undefined,
      want: undefined,
    },
    {
      name: "given an unscheduled pod, has no binding time",
      pod: pod({ created: "2026-11-29T09:00:00Z" }),
      firstSeen: FIRST_SEEN,
      want: undefined,
    },
  ];
  for (const t of cases) {
    it(t.name, () => expect(toPodView(t.pod, defaults, t.firstSeen).boundAtMs).to.equal(t.want));
  }

  it("given phase Succeeded or Failed, marks the pod terminal", () => {
    expect(toPodView(pod({ nodeName: "n", phase: "Succeeded" }), defaults, 0).terminal).to.equal(true);
    expect(toPodView(pod({ nodeName: "n", phase: "Failed" }), defaults, 0).terminal).to.equal(true);
    expect(toPodView(pod({ nodeName: "n", phase: "Running" }), defaults, 0).terminal).to.equal(false);
  });

  it("given a bad quantity, reports it with the pod's name instead of throwing", () => {
    const problems: string[] = [];
    const p: PodWire = {
      metadata: { namespace: "ns", name: "bad" },
      spec: { containers: [{ name: "app", resources: { requests: { cpu: "1x" } } }] },
    };
    const view = toPodView(p, defaults, 0, problems);
    expect(view.requests.cpuMilli).to.equal(0);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.contain("pod ns/bad");
  });
});

describe("toPodView: kube-scheduler's message on a pending pod", () => {
  const message = "0/5 nodes are available: 2 node(s) on hot ESXi hosts (cpu ready), 3 node(s) didn't match Pod's node affinity/selector.";
  const withMessage = (nodeName: string | undefined, status: string): PodWire => {
    const p = pod(nodeName ? { nodeName } : {});
    return { ...p, status: { phase: "Pending", conditions: [{ type: "PodScheduled", status, message }] } };
  };
  const cases: Array<{ name: string; wire: PodWire; want: string | undefined }> = [
    { name: "given a pending pod with PodScheduled False, keeps its message", wire: withMessage(undefined, "False"), want: message },
    { name: "given a bound pod, keeps none", wire: withMessage("n1", "False"), want: undefined },
    { name: "given PodScheduled True, keeps none", wire: withMessage(undefined, "True"), want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(toPodView(c.wire, defaults, FIRST_SEEN).unschedulableMessage).to.equal(c.want));
});

describe("toPodView: the workload class, from the Pod's own fields", () => {
  const jobRef = [{ apiVersion: "batch/v1", kind: "Job", name: "nightly-29001", uid: "j1", controller: true }];
  const wire = (over: { labels?: Record<string, string>; priority?: number; qosClass?: string; job?: boolean }): PodWire => {
    const p = pod({});
    return {
      ...p,
      metadata: { ...p.metadata, ...(over.labels ? { labels: over.labels } : {}), ...(over.job ? { ownerReferences: jobRef } : {}) },
      spec: { ...p.spec, ...(over.priority !== undefined ? { priority: over.priority } : {}) },
      status: { ...p.status, ...(over.qosClass ? { qosClass: over.qosClass } : {}) },
    };
  };
  const cases: Array<{ name: string; wire: PodWire; want: WorkloadClass | undefined }> = [
    {
      name: "given the hvx.io/workload-class label online on a Job's pod, returns online",
      wire: wire({ labels: { "hvx.io/workload-class": "online" }, job: true }),
      want: "online",
    },
    { name: "given a Job's pod, returns batch", wire: wire({ job: true }), want: "batch" },
    { name: "given status.qosClass BestEffort, returns batch", wire: wire({ qosClass: "BestEffort" }), want: "batch" },
    { name: "given spec.priority 1000000, returns online", wire: wire({ priority: 1_000_000 }), want: "online" },
    { name: "given a plain Burstable pod, returns none", wire: wire({ qosClass: "Burstable", priority: 0 }), want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(toPodView(c.wire, defaults, FIRST_SEEN).workloadClass).to.equal(c.want));

  it("given the configured classification (Jobs not batch), follows it", () => {
    const classes = { ...DEFAULT_WORKLOAD_CLASSIFICATION, batch: { ...DEFAULT_WORKLOAD_CLASSIFICATION.batch, jobs: false } };
    expect(toPodView(wire({ job: true }), defaults, FIRST_SEEN, [], classes).workloadClass).to.equal(undefined);
  });
});

describe("ownerKeyOf", () => {
  it("given two ReplicaSets of one Deployment (a rolling update), puts their pods in one replica group", () => {
    const podOf = (rs: string, hash: string): PodWire => ({
      metadata: {
        namespace: "shop",
        labels: { "pod-template-hash": hash },
        ownerReferences: [{ kind: "ReplicaSet", name: `${rs}-${hash}`, controller: true }],
      },
    });
    expect(ownerKeyOf(podOf("web", "5d8f7c9b6"))).to.equal(ownerKeyOf(podOf("web", "6f7a8b9c0")));
  });

  const cases: Array<{ name: string; meta: NonNullable<PodWire["metadata"]>; want: string | undefined }> = [
    {
      name: "given a ReplicaSet controller, keys by it",
      meta: { namespace: "a", ownerReferences: [{ kind: "ReplicaSet", name: "web-7d9", controller: true }] },
      want: "ReplicaSet/a/web-7d9",
    },
    {
      name: "given a StatefulSet, keys by it",
      meta: { namespace: "a", ownerReferences: [{ kind: "StatefulSet", name: "db", controller: true }] },
      want: "StatefulSet/a/db",
    },
    {
      name: "given a Job, keys by it",
      meta: { namespace: "a", ownerReferences: [{ kind: "Job", name: "batch", controller: true }] },
      want: "Job/a/batch",
    },
    {
      name: "given a DaemonSet owner and an app label, keys by the label",
      meta: {
        namespace: "a",
        labels: { "app.kubernetes.io/name": "agent" },
        ownerReferences: [{ kind: "DaemonSet", name: "agent", controller: true }],
      },
      want: "app/a/agent",
    },
    { name: "given nothing, has no key", meta: { namespace: "a" }, want: undefined },
    {
      name: "given a Deployment's ReplicaSet (pod-template-hash label matching the name's suffix), keys by the Deployment",
      meta: {
        namespace: "a",
        labels: { "pod-template-hash": "7d9f8b6c5" },
        ownerReferences: [{ kind: "ReplicaSet", name: "web-7d9f8b6c5", controller: true }],
      },
      want: "Deployment/a/web",
    },
    {
      name: "given a Deployment named with dashes, strips only the hash",
      meta: {
        namespace: "a",
        labels: { "pod-template-hash": "5b8c7" },
        ownerReferences: [{ kind: "ReplicaSet", name: "payments-api-5b8c7", controller: true }],
      },
      want: "Deployment/a/payments-api",
    },
    {
      name: "given a ReplicaSet whose name does not end with the pod's hash, keys by the ReplicaSet",
      meta: {
        namespace: "a",
        labels: { "pod-template-hash": "abc" },
        ownerReferences: [{ kind: "ReplicaSet", name: "web-7d9", controller: true }],
      },
      want: "ReplicaSet/a/web-7d9",
    },
    {
      name: "given a ReplicaSet named exactly like the hash, keys by the ReplicaSet",
      meta: {
        namespace: "a",
        labels: { "pod-template-hash": "abc" },
        ownerReferences: [{ kind: "ReplicaSet", name: "-abc", controller: true }],
      },
      want: "ReplicaSet/a/-abc",
    },
  ];
  for (const t of cases) it(t.name, () => expect(ownerKeyOf({ metadata: t.meta })).to.equal(t.want));
});

describe("evictionFactsOf", () => {
  const cases: Array<{ name: string; pod: PodWire; want: Partial<PodEvictionFacts> }> = [
    {
      name: "given a ReplicaSet controller, names it",
      pod: { metadata: { ownerReferences: [{ kind: "ReplicaSet", name: "web-1", controller: true }] } },
      want: { controllerKind: "ReplicaSet", ownerKinds: ["ReplicaSet"], localStorage: false },
    },
    {
      name: "given an owner that is not the controller, has no controller",
      pod: { metadata: { ownerReferences: [{ kind: "ReplicaSet", name: "web-1" }] } },
      want: { controllerKind: undefined, ownerKinds: ["ReplicaSet"] },
    },
    {
      name: "given an apps/v1 DaemonSet controller, keeps its uid",
      pod: { metadata: { ownerReferences: [{ apiVersion: "apps/v1", kind: "DaemonSet", name: "agent", uid: "u-1", controller: true }] } },
      want: { controllerKind: "DaemonSet", daemonSetUid: "u-1" },
    },
    {
      name: "given a DaemonSet owner that is not the controller, has no DaemonSet uid",
      pod: { metadata: { ownerReferences: [{ apiVersion: "apps/v1", kind: "DaemonSet", name: "agent", uid: "u-1" }] } },
      want: { daemonSetUid: undefined },
    },
    { name: "given an emptyDir volume, has local storage", pod: { spec: { volumes: [{ emptyDir: {} }] } }, want: { localStorage: true } },
    {
      name: "given a hostPath volume, has local storage",
      pod: { spec: { volumes: [{ hostPath: { path: "/var/log" } } as never] } },
      want: { localStorage: true },
    },
    {
      name: "given only other volumes (configMap, PVC), has none",
      pod: { spec: { volumes: [{ configMap: { name: "c" } } as never, { persistentVolumeClaim: { claimName: "d" } } as never] } },
      want: { localStorage: false },
    },
    {
      name: "given priority and class, keeps both",
      pod: { spec: { priority: 2000001000, priorityClassName: "system-node-critical" } },
      want: { priority: 2000001000, priorityClassName: "system-node-critical" },
    },
    {
      name: "given hvx.io/exempt, keeps its value",
      pod: { metadata: { annotations: { "hvx.io/exempt": "true" } } },
      want: { exemptAnnotation: "true" },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const facts = evictionFactsOf(c.pod);
      for (const [k, v] of Object.entries(c.want)) expect((facts as unknown as Record<string, unknown>)[k], k).to.deep.equal(v);
    });
  }
});

describe("toPodView shares what pods of one template have in common", () => {
  const replica = (name: string, uid: string, cpuLimit = "1"): PodWire => ({
    metadata: {
      namespace: "ns",
      name,
      uid,
      labels: { "pod-template-hash": "abc" },
      ownerReferences: [{ kind: "ReplicaSet", name: "web-abc", controller: true }],
    },
    spec: { nodeName: "n1", containers: [{ resources: { requests: { cpu: "250m" }, limits: { cpu: cpuLimit, memory: "1Gi" } } }] },
    status: { phase: "Running" },
  });

  it("given two replicas, their amounts, eviction facts and owner key are the same frozen objects, their own fields their own", () => {
    const a = toPodView(replica("web-abc-1", "u1"), defaults, undefined);
    const b = toPodView(replica("web-abc-2", "u2"), defaults, undefined);
    for (const field of ["requests", "limits", "expectedDemand", "eviction"] as const) {
      expect(b[field], field).to.equal(a[field]);
      expect(Object.isFrozen(a[field]), field).to.equal(true);
    }
    expect(b.ownerKey).to.equal("Deployment/ns/web").and.to.equal(a.ownerKey);
    expect([a.name, a.uid, b.name, b.uid]).to.deep.equal(["web-abc-1", "u1", "web-abc-2", "u2"]);
  });

  it("given a replica with another CPU limit, its limits are its own object; its equal requests are shared", () => {
    const small = toPodView(replica("web-abc-1", "u1"), defaults, undefined);
    const view = toPodView(replica("web-abc-3", "u3", "2"), defaults, undefined);
    expect(view.limits).to.deep.equal({ cpuMilli: 2000, memoryBytes: 1024 ** 3 });
    expect(view.limits).to.not.equal(small.limits);
    expect(view.requests).to.equal(small.requests);
  });
});
