import { expect } from "chai";
import { DEFAULT_SPREAD_WEIGHTS, type SpreadRule } from "../../../src/placement/host-spread.js";
import { KUBERNETES_RULES, type PodFacts } from "../../../src/placement/rules/kubernetes/index.js";
import { podView } from "../../fixtures/cluster.js";

const spread: SpreadRule = { owner: "ReplicaSet/shop/web", required: false, maxSkew: 1, weights: DEFAULT_SPREAD_WEIGHTS };
const base: PodFacts = { pod: podView({ uid: "a" }), spread, leastReplicas: () => 2, leastOnCandidates: () => undefined };
const podKeyOf = (facts: PodFacts) => KUBERNETES_RULES.map((r) => r.podKey(facts)).join("|");
const relativeKeyOf = (facts: PodFacts) => KUBERNETES_RULES.map((r) => r.relativeKey?.(facts) ?? "").join("|");
/** What a decision depends on: the pod key and, for its score, the relative key. */
const keyOf = (facts: PodFacts) => `${podKeyOf(facts)}#${relativeKeyOf(facts)}`;

describe("Kubernetes-layer rules: the pod key holds what they read", () => {
  const differing: Array<{ name: string; facts: PodFacts }> = [
    {
      name: "the CPU limit",
      facts: { ...base, pod: podView({ uid: "a", limits: { cpuMilli: 1234, memoryBytes: base.pod.limits.memoryBytes } }) },
    },
    {
      name: "the memory limit",
      facts: { ...base, pod: podView({ uid: "a", limits: { cpuMilli: base.pod.limits.cpuMilli, memoryBytes: 7 } }) },
    },
    { name: "the owner", facts: { ...base, spread: { ...spread, owner: "ReplicaSet/shop/api" } } },
    { name: "a required spread", facts: { ...base, spread: { ...spread, required: true } } },
    { name: "the max skew", facts: { ...base, spread: { ...spread, maxSkew: 2 } } },
    { name: "the fewest replicas on the candidates' hosts", facts: { ...base, leastReplicas: () => 3 } },
    { name: "no replica group", facts: { ...base, spread: undefined } },
    { name: "the workload class (online)", facts: { ...base, pod: podView({ uid: "a", workloadClass: "online" }) } },
    { name: "the workload class (batch)", facts: { ...base, pod: podView({ uid: "a", workloadClass: "batch" }) } },
  ];
  for (const c of differing)
    it(`given pods that differ in ${c.name}, gives them different keys`, () => expect(keyOf(c.facts)).to.not.equal(keyOf(base)));

  it("given pods that differ only in name, uid and requests, gives them the same key", () => {
    const other = podView({ uid: "b", name: "web-2", requests: { cpuMilli: 1, memoryBytes: 1 }, limits: base.pod.limits });
    expect(keyOf({ ...base, pod: other })).to.equal(keyOf(base));
  });

  it("given pods of one group whose candidates' hosts differ in the fewest correlated-burst points, gives them different keys", () => {
    const pod = podView({ uid: "a", ownerKey: "ReplicaSet/shop/api" });
    const fewest = (points: number): PodFacts => ({ ...base, pod, leastOnCandidates: () => points });
    expect(keyOf(fewest(0))).to.not.equal(keyOf(fewest(3)));
  });

  it("given pods that differ only in a fewest-on-the-candidates count, gives them one pod key: a kept decision is re-scored", () => {
    const pod = podView({ uid: "a", ownerKey: "ReplicaSet/shop/api" });
    const other: PodFacts = { ...base, pod, leastReplicas: () => 3, leastOnCandidates: () => 3 };
    expect(podKeyOf(other)).to.equal(podKeyOf({ ...base, pod }));
    expect(relativeKeyOf(other)).to.not.equal(relativeKeyOf({ ...base, pod }));
  });

  it("given a required spread, keeps the fewest replicas in the pod key (it rejects by it)", () => {
    const required = { ...base, spread: { ...spread, required: true } };
    expect(podKeyOf({ ...required, leastReplicas: () => 3 })).to.not.equal(podKeyOf(required));
  });

  it("given a pod without a replica group, never counts replicas", () => {
    let counted = 0;
    keyOf({ ...base, spread: undefined, leastReplicas: () => counted++ });
    expect(counted).to.equal(0);
  });
});
