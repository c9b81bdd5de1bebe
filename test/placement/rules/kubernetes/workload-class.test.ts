import { expect } from "chai";
import type { PodView } from "../../../../src/model/cluster.js";
import type { HostView } from "../../../../src/model/inventory.js";
import { NO_PENDING } from "../../../../src/placement/burst-guard.js";
import type { HostEntry } from "../../../../src/placement/placement-index.js";
import { computePodTotals } from "../../../../src/placement/pod-totals.js";
import type { WorkloadClassPolicy } from "../../../../src/placement/policy.js";
import type { HostJudgement } from "../../../../src/placement/rules/kubernetes/index.js";
import { DEFAULT_WORKLOAD_CLASSES, judgeWorkloadClass } from "../../../../src/placement/rules/kubernetes/workload-class.js";
import { formatReason } from "../../../../src/protocol/format-reason.js";
import { amounts, podView } from "../../../fixtures/cluster.js";
import { hostView } from "../../../fixtures/inventory.js";

const host = hostView({ id: "host-21", name: "esx-07", clusterName: "prod" });
function entryOf(pods: PodView[], h: HostView = host): HostEntry {
  return { host: h, podsOnHost: pods, totals: computePodTotals(pods), pending: NO_PENDING, projected: h };
}
/** A pod on the host expecting `cores` CPUs. */
const on = (cores: number, workloadClass?: PodView["workloadClass"], over: Partial<PodView> = {}) =>
  podView({ expectedDemand: amounts(cores, 1), ...(workloadClass ? { workloadClass } : {}), ...over });
const online = podView({ uid: "incoming", workloadClass: "online", expectedDemand: amounts(1, 1) });
const batch = podView({ uid: "incoming-batch", workloadClass: "batch", expectedDemand: amounts(1, 1) });
const points = (j: HostJudgement | undefined) => j?.adjustment?.points ?? 0;

describe("judgeWorkloadClass: the mixing penalty (default 3 points)", () => {
  const cases: Array<{ name: string; pod: PodView; pods: PodView[]; want: number }> = [
    // batch 3 of 3 + 1 = 4 cores: 3 x 0.75 = 2.25
    {
      name: "given an online pod and a host whose pods' CPU is 75 % batch, returns 2.25",
      pod: online,
      pods: [on(3, "batch"), on(1, "online")],
      want: 2.25,
    },
    // online 2 of 2 + 2 (no class) = 4: 3 x 0.5 = 1.5 (unclassed pods dilute the share)
    {
      name: "given a batch pod and a host half online, half unclassed, returns 1.5",
      pod: batch,
      pods: [on(2, "online"), on(2)],
      want: 1.5,
    },
    { name: "given an online pod and a host of online pods only, returns 0", pod: online, pods: [on(4, "online")], want: 0 },
    { name: "given an online pod and an empty host, returns 0", pod: online, pods: [], want: 0 },
    { name: "given a pod without a class, returns 0 (no opinion)", pod: podView({ uid: "x" }), pods: [on(4, "batch")], want: 0 },
    // the terminal batch pod holds nothing: 1 online of 1 = no batch
    {
      name: "given only a terminal batch pod, returns 0",
      pod: online,
      pods: [on(4, "batch", { terminal: true }), on(1, "online")],
      want: 0,
    },
    // the re-sent online pod (1 core) is not counted: batch 1 of 1 = 3 points
    {
      name: "given the online pod itself already bound on the host, does not count it: returns 3",
      pod: online,
      pods: [online, on(1, "batch")],
      want: 3,
    },
  ];
  for (const c of cases)
    it(c.name, () => expect(points(judgeWorkloadClass(entryOf(c.pods), c.pod, DEFAULT_WORKLOAD_CLASSES))).to.equal(c.want));

  it("given mixPenalty 0, returns no opinion", () =>
    expect(judgeWorkloadClass(entryOf([on(4, "batch")]), online, { ...DEFAULT_WORKLOAD_CLASSES, mixPenalty: 0 })).to.equal(undefined));

  it("given a penalty, names the rule and says the share and cores for explain, and rejects nothing", () => {
    const j = judgeWorkloadClass(entryOf([on(3, "batch"), on(1, "online")]), online, DEFAULT_WORKLOAD_CLASSES)!;
    expect(j.reasons).to.deep.equal([]);
    const a = j.adjustment!;
    expect({ rule: a.rule, points: a.points, detail: a.detail }).to.deep.equal({
      rule: "workload-class",
      points: 2.25,
      detail: "online pod: batch pods hold 75 % of the expected CPU of this host's pods (3.0 of 4.0 cores) x 3 points",
    });
  });
});

describe("judgeWorkloadClass: hard pools", () => {
  const pinned: WorkloadClassPolicy = { ...DEFAULT_WORKLOAD_CLASSES, pools: { online: { clusters: ["online"], hostNames: [] } } };

  it("given an online pod pinned to another cluster, rejects the host naming class, cluster and pool", () => {
    const j = judgeWorkloadClass(entryOf([]), online, pinned)!;
    expect(j.adjustment).to.equal(undefined);
    expect(j.reasons.map(formatReason)).to.deep.equal([
      "ESXi host esx-07 (host-21): not in the online pool (clusters online; workloadClasses.pools.online), its cluster prod",
    ]);
  });

  it("given the same host and pool twice, returns the same reason list (its rendered text is shared)", () =>
    expect(judgeWorkloadClass(entryOf([]), online, pinned)!.reasons).to.equal(judgeWorkloadClass(entryOf([]), online, pinned)!.reasons));

  it("given a host in the pool, judges the mixing penalty instead", () => {
    const inPool: WorkloadClassPolicy = { ...pinned, pools: { online: { clusters: ["prod"], hostNames: [] } } };
    const j = judgeWorkloadClass(entryOf([on(1, "batch")]), online, inPool)!;
    expect(j.reasons).to.deep.equal([]);
    expect(j.adjustment?.points).to.equal(3);
  });

  it("given a batch pod and only an online pool, leaves the host to the penalty (pools pin, they do not reserve)", () =>
    expect(judgeWorkloadClass(entryOf([]), batch, pinned)).to.equal(undefined));

  it("given a pod without a class, never rejects", () =>
    expect(judgeWorkloadClass(entryOf([]), podView({ uid: "y" }), pinned)).to.equal(undefined));
});
