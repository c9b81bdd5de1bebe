import { expect } from "chai";
import type { WorkloadClass } from "../../src/model/cluster.js";
import {
  classifyWorkload,
  DEFAULT_WORKLOAD_CLASSIFICATION,
  WORKLOAD_CLASS_LABEL,
  type WorkloadClassification,
  type WorkloadFacts,
} from "../../src/placement/workload-class.js";

const D = DEFAULT_WORKLOAD_CLASSIFICATION;
const facts = (over: Partial<WorkloadFacts> = {}): WorkloadFacts => ({ labels: {}, ...over });
const named: WorkloadClassification = {
  ...D,
  online: { ...D.online, priorityClassNames: ["shop-critical"] },
  batch: { ...D.batch, priorityClassNames: ["nightly"] },
};

const cases: Array<{ name: string; facts: WorkloadFacts; c?: WorkloadClassification; want: WorkloadClass | undefined }> = [
  {
    name: "given nothing that says a class, returns none",
    facts: facts({ priority: 0, controllerKind: "ReplicaSet", qosClass: "Burstable" }),
    want: undefined,
  },
  { name: "given the label online, returns online", facts: facts({ labels: { [WORKLOAD_CLASS_LABEL]: "online" } }), want: "online" },
  // the label wins over a Job controller, BestEffort and a batch priority
  {
    name: "given the label online on a BestEffort Job pod at priority -5, returns online (the label wins)",
    facts: facts({ labels: { [WORKLOAD_CLASS_LABEL]: "online" }, controllerKind: "Job", qosClass: "BestEffort", priority: -5 }),
    want: "online",
  },
  {
    name: "given the label batch at priority 2000000, returns batch (the label wins)",
    facts: facts({ labels: { [WORKLOAD_CLASS_LABEL]: "batch" }, priority: 2_000_000 }),
    want: "batch",
  },
  {
    name: "given the label none on a Job pod, returns none",
    facts: facts({ labels: { [WORKLOAD_CLASS_LABEL]: "none" }, controllerKind: "Job" }),
    want: undefined,
  },
  {
    name: "given an unknown label value (Online) on a Job pod, returns none: a label never falls through",
    facts: facts({ labels: { [WORKLOAD_CLASS_LABEL]: "Online" }, controllerKind: "Job" }),
    want: undefined,
  },
  {
    name: 'given label "" (labels off), ignores the label and reads the Job controller',
    facts: facts({ labels: { [WORKLOAD_CLASS_LABEL]: "online" }, controllerKind: "Job" }),
    c: { ...D, label: "" },
    want: "batch",
  },
  {
    name: "given another configured label key, reads that one",
    facts: facts({ labels: { "example.com/tier": "online", [WORKLOAD_CLASS_LABEL]: "batch" } }),
    c: { ...D, label: "example.com/tier" },
    want: "online",
  },
  {
    name: "given a listed online priority class name, returns online",
    facts: facts({ priorityClassName: "shop-critical", controllerKind: "Job" }),
    c: named,
    want: "online",
  },
  {
    name: "given a listed batch priority class name at priority 2000000, returns batch",
    facts: facts({ priorityClassName: "nightly", priority: 2_000_000 }),
    c: named,
    want: "batch",
  },
  { name: "given priority 1000000 (the default minimum), returns online", facts: facts({ priority: 1_000_000 }), want: "online" },
  { name: "given priority 999999, returns none", facts: facts({ priority: 999_999 }), want: undefined },
  { name: "given priority -1 (the default maximum for batch), returns batch", facts: facts({ priority: -1 }), want: "batch" },
  {
    name: "given a high-priority Job pod, returns online (priority before the controller)",
    facts: facts({ priority: 1_000_000, controllerKind: "Job" }),
    want: "online",
  },
  {
    name: "given online.minPriority null, priority never makes a pod online",
    facts: facts({ priority: 2_000_000 }),
    c: { ...D, online: { ...D.online, minPriority: null } },
    want: undefined,
  },
  {
    name: "given batch.maxPriority null, a negative priority says nothing",
    facts: facts({ priority: -100 }),
    c: { ...D, batch: { ...D.batch, maxPriority: null } },
    want: undefined,
  },
  {
    name: "given a Job controller (a CronJob's Job too), returns batch",
    facts: facts({ controllerKind: "Job", priority: 0 }),
    want: "batch",
  },
  {
    name: "given a Job controller with batch.jobs false, returns none",
    facts: facts({ controllerKind: "Job" }),
    c: { ...D, batch: { ...D.batch, jobs: false } },
    want: undefined,
  },
  {
    name: "given the BestEffort QoS class, returns batch",
    facts: facts({ qosClass: "BestEffort", controllerKind: "ReplicaSet" }),
    want: "batch",
  },
  {
    name: "given BestEffort with batch.bestEffort false, returns none",
    facts: facts({ qosClass: "BestEffort" }),
    c: { ...D, batch: { ...D.batch, bestEffort: false } },
    want: undefined,
  },
];

describe("classifyWorkload", () => {
  for (const c of cases) it(c.name, () => expect(classifyWorkload(c.facts, c.c ?? D)).to.equal(c.want));
});
