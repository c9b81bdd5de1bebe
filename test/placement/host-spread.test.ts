import { expect } from "chai";
import { toPodView, type PodWire } from "../../src/cluster/to-pod-view.js";
import type { PodView } from "../../src/model/cluster.js";
import {
  checkSpread,
  DEFAULT_SPREAD_WEIGHTS,
  HOST_SPREAD_ANNOTATION,
  HOST_SPREAD_MAX_SKEW_ANNOTATION,
  replicasOn,
  spreadRuleOf,
  type SpreadRule,
} from "../../src/placement/host-spread.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { podView } from "../fixtures/cluster.js";
import { hostView } from "../fixtures/inventory.js";

const OWNER = "ReplicaSet/payments/api-7d9";
const host = hostView({ id: "host-21", name: "esx-07" });

describe("spreadRuleOf", () => {
  const cases: Array<{ name: string; pod: PodView; annotations: Record<string, string>; want: SpreadRule | undefined }> = [
    {
      name: "given a pod without a replica group, returns undefined",
      pod: podView({ ownerKey: undefined }),
      annotations: { [HOST_SPREAD_ANNOTATION]: "required" },
      want: undefined,
    },
    {
      name: "given a replica with no annotations, prefers spread with skew 1",
      pod: podView({ ownerKey: OWNER }),
      annotations: {},
      want: { owner: OWNER, required: false, maxSkew: 1, weights: DEFAULT_SPREAD_WEIGHTS },
    },
    {
      name: "given host-spread: required, makes it a filter",
      pod: podView({ ownerKey: OWNER }),
      annotations: { [HOST_SPREAD_ANNOTATION]: "required" },
      want: { owner: OWNER, required: true, maxSkew: 1, weights: DEFAULT_SPREAD_WEIGHTS },
    },
    {
      name: "given host-spread: preferred, keeps it a preference",
      pod: podView({ ownerKey: OWNER }),
      annotations: { [HOST_SPREAD_ANNOTATION]: "preferred" },
      want: { owner: OWNER, required: false, maxSkew: 1, weights: DEFAULT_SPREAD_WEIGHTS },
    },
    {
      name: "given max-skew 3, uses 3",
      pod: podView({ ownerKey: OWNER }),
      annotations: { [HOST_SPREAD_ANNOTATION]: "required", [HOST_SPREAD_MAX_SKEW_ANNOTATION]: "3" },
      want: { owner: OWNER, required: true, maxSkew: 3, weights: DEFAULT_SPREAD_WEIGHTS },
    },
    ...["0", "-2", "1.5", "two", ""].map((v) => ({
      name: `given an invalid max-skew ${JSON.stringify(v)}, falls back to 1`,
      pod: podView({ ownerKey: OWNER }),
      annotations: { [HOST_SPREAD_ANNOTATION]: "required", [HOST_SPREAD_MAX_SKEW_ANNOTATION]: v },
      want: { owner: OWNER, required: true, maxSkew: 1, weights: DEFAULT_SPREAD_WEIGHTS },
    })),
  ];
  for (const c of cases) it(c.name, () => expect(spreadRuleOf(c.pod, c.annotations)).to.deep.equal(c.want));

  it("given configured weights, carries them into the rule", () => {
    const weights = { spreadPenaltyPerReplica: 1, maxSpreadPenalty: 3 };
    expect(spreadRuleOf(podView({ ownerKey: OWNER }), {}, weights)?.weights).to.deep.equal(weights);
  });
});

describe("replicasOn", () => {
  const pods = [
    podView({ ownerKey: OWNER }),
    podView({ ownerKey: OWNER }),
    podView({ ownerKey: "ReplicaSet/payments/other-5f4" }),
    podView({ ownerKey: "ReplicaSet/billing/api-7d9" }),
    podView({ ownerKey: undefined }),
    podView({ ownerKey: OWNER, uid: "incoming" }),
  ];
  it("given replicas of several owners, counts only the owner's, never the incoming pod itself", () => {
    expect(replicasOn(pods, OWNER, "incoming")).to.equal(2);
  });
  it("given no replicas of the owner, returns 0", () => {
    expect(replicasOn(pods, "StatefulSet/payments/db", "incoming")).to.equal(0);
  });
});

describe("checkSpread", () => {
  const preferred: SpreadRule = { owner: OWNER, required: false, maxSkew: 1, weights: DEFAULT_SPREAD_WEIGHTS };
  const required: SpreadRule = { owner: OWNER, required: true, maxSkew: 1, weights: DEFAULT_SPREAD_WEIGHTS };
  const cases: Array<{ name: string; onHost: number; least: number; rule: SpreadRule; penalty: number; reason?: string }> = [
    // penalty = min(6, 2 x max(0, onHost - least))
    { name: "given no replicas anywhere, no penalty", onHost: 0, least: 0, rule: preferred, penalty: 0 },
    // min(3, 1 x (5 - 1)) = 3
    {
      name: "given weights 1 per replica capped at 3 and 4 above, penalty 3",
      onHost: 5,
      least: 1,
      rule: { ...preferred, weights: { spreadPenaltyPerReplica: 1, maxSpreadPenalty: 3 } },
      penalty: 3,
    },
    {
      name: "given weights 0 (spread preference off), no penalty",
      onHost: 5,
      least: 0,
      rule: { ...preferred, weights: { spreadPenaltyPerReplica: 0, maxSpreadPenalty: 6 } },
      penalty: 0,
    },
    { name: "given 1 replica above the least loaded host, penalty 2", onHost: 1, least: 0, rule: preferred, penalty: 2 },
    { name: "given 2 above, penalty 4", onHost: 2, least: 0, rule: preferred, penalty: 4 },
    { name: "given 3 above, penalty 6", onHost: 4, least: 1, rule: preferred, penalty: 6 },
    { name: "given 5 above, penalty capped at 6", onHost: 5, least: 0, rule: preferred, penalty: 6 },
    { name: "given as many as the least loaded host, no penalty", onHost: 3, least: 3, rule: preferred, penalty: 0 },
    { name: "given preferred spread 5 above, never filters", onHost: 5, least: 0, rule: preferred, penalty: 6 },
    // required, skew 1: (0 + 1) - 0 = 1 <= 1
    { name: "given required and an empty host, passes", onHost: 0, least: 0, rule: required, penalty: 0 },
    // (1 + 1) - 1 = 1 <= 1
    { name: "given required and one more than least after placing, passes", onHost: 1, least: 1, rule: required, penalty: 0 },
    // (1 + 1) - 0 = 2 > 1
    {
      name: "given required and a host that would be 2 ahead, filters it",
      onHost: 1,
      least: 0,
      rule: required,
      penalty: 2,
      reason: `ESXi host esx-07 (host-21): 1 replicas of ${OWNER} already on this host, least loaded candidate host has 0 (max skew 1, hvx.io/host-spread: required)`,
    },
    // skew 2: (1 + 1) - 0 = 2 <= 2
    {
      name: "given required skew 2 and a host that would be 2 ahead, passes",
      onHost: 1,
      least: 0,
      rule: { ...required, maxSkew: 2, weights: DEFAULT_SPREAD_WEIGHTS },
      penalty: 2,
    },
    // skew 2: (2 + 1) - 0 = 3 > 2
    {
      name: "given required skew 2 and a host that would be 3 ahead, filters it",
      onHost: 2,
      least: 0,
      rule: { ...required, maxSkew: 2, weights: DEFAULT_SPREAD_WEIGHTS },
      penalty: 4,
      reason: `ESXi host esx-07 (host-21): 2 replicas of ${OWNER} already on this host, least loaded candidate host has 0 (max skew 2, hvx.io/host-spread: required)`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = checkSpread(host, c.onHost, c.least, c.rule);
      expect(out.penalty).to.equal(c.penalty);
      expect(out.reason ? formatReason(out.reason) : undefined).to.equal(c.reason);
    });
  }
});

describe("spread across a Deployment's rolling update", () => {
  it("given old-ReplicaSet replicas on a host and an incoming pod of the new ReplicaSet, counts them as one replica group", () => {
    const wire = (rs: string, hash: string, name: string, nodeName?: string): PodWire => ({
      metadata: {
        namespace: "shop",
        name,
        uid: name,
        labels: { "pod-template-hash": hash },
        ownerReferences: [{ kind: "ReplicaSet", name: `${rs}-${hash}`, controller: true }],
      },
      spec: { containers: [], ...(nodeName ? { nodeName } : {}) },
    });
    const defaults = { cpuMilli: 100, memoryBytes: 1 };
    const onHost = [wire("web", "5d8f7c9b6", "web-5d8f7c9b6-a", "n1"), wire("web", "5d8f7c9b6", "web-5d8f7c9b6-b", "n1")].map((p) =>
      toPodView(p, defaults, undefined),
    );
    const incoming = toPodView(wire("web", "6f7a8b9c0", "web-6f7a8b9c0-x"), defaults, undefined);
    const rule = spreadRuleOf(incoming, {})!;
    expect(rule.owner).to.equal("Deployment/shop/web");
    expect(replicasOn(onHost, rule.owner, incoming.uid)).to.equal(2, "the rolling update does not reset the spread");
  });
});
