import { expect } from "chai";
import type { HostForecast, PredictedMetrics } from "../../src/model/host-forecast.js";
import { assessHost } from "../../src/placement/assess-host.js";
import type { PodMeta } from "../../src/placement/exemption.js";
import { explainNodes } from "../../src/placement/explain-node.js";
import { filterNodes, prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { PROFILE_BUCKET_MS } from "../../src/placement/load-profile.js";
import type { PredictionPolicy } from "../../src/placement/policy.js";
import { predictHeat, predictionHorizonMs } from "../../src/placement/predicted-heat.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY, policyWith } from "../fixtures/policy.js";

const H = 3_600_000;
const ON: PredictionPolicy = { enabled: true, horizonHours: 24, filter: false };
const pod = (over: Partial<PodMeta> = {}): PodMeta => ({
  namespace: "payments",
  name: "api-1",
  ownerKinds: ["ReplicaSet"],
  annotations: {},
  ...over,
});

/** A forecast from NOW_MS (10:00 UTC) whose peaks are `near` for the first 4 h and `later` from 14:00 on. */
function forecast(near: PredictedMetrics, later: PredictedMetrics): HostForecast {
  const byBuckets = Array.from({ length: 48 }, (_, k) => (k < 8 ? near : { ...near, ...later }));
  return { fromMs: NOW_MS, bucketMs: PROFILE_BUCKET_MS, byBuckets };
}
const peak = (value: number, minuteOfDay = 14 * 60, days = 7) => ({ value, minuteOfDay, days });

describe("predictionHorizonMs", () => {
  const cases: Array<{ name: string; pod: PodMeta | undefined; policy: PredictionPolicy | undefined; want: number }> = [
    { name: "a ReplicaSet pod looks the whole horizon ahead", pod: pod(), policy: ON, want: 24 * H },
    { name: "a StatefulSet pod looks the whole horizon ahead", pod: pod({ ownerKinds: ["StatefulSet"] }), policy: ON, want: 24 * H },
    { name: "a bare pod looks the whole horizon ahead", pod: pod({ ownerKinds: [] }), policy: ON, want: 24 * H },
    {
      name: "a Job pod with a 1 h deadline looks 1 h ahead",
      pod: pod({ ownerKinds: ["Job"], activeDeadlineSeconds: 3600 }),
      policy: ON,
      want: H,
    },
    { name: "a Job pod without a deadline: the present alone", pod: pod({ ownerKinds: ["Job"] }), policy: ON, want: 0 },
    {
      name: "a deadline over the horizon is capped at the horizon",
      pod: pod({ activeDeadlineSeconds: 48 * 3600 }),
      policy: ON,
      want: 24 * H,
    },
    { name: "a ReplicaSet pod with a 2 h deadline looks 2 h ahead", pod: pod({ activeDeadlineSeconds: 7200 }), policy: ON, want: 2 * H },
    { name: "prediction disabled: the present alone", pod: pod(), policy: { ...ON, enabled: false }, want: 0 },
    { name: "no policy: the present alone", pod: pod(), policy: undefined, want: 0 },
    { name: "no pod (prioritize-only views): the present alone", pod: undefined, policy: ON, want: 0 },
  ];
  for (const c of cases) it(c.name, () => expect(predictionHorizonMs(c.pod, c.policy)).to.equal(c.want));
});

describe("predictHeat", () => {
  const host = hostView({ id: "host-1", name: "esx-01" });
  const present = assessHost(host, undefined, DEFAULT_POLICY.thresholds, NOW_MS);
  const policy = { thresholds: DEFAULT_POLICY.thresholds, prediction: ON };

  it("given a predicted ready peak over the rejection threshold, makes a cool host warm and names the prediction", () => {
    const out = predictHeat(present, host, host.metrics, forecast({}, { cpuReadyPercent: peak(14) }), 24 * H, policy)!;
    expect(present.heat).to.equal("cool");
    expect(out.assessment.heat).to.equal("warm");
    expect(out.assessment.rejections).to.deep.equal([]);
    expect(out.assessment.warnings.map(formatReason)).to.deep.equal([
      "ESXi host esx-01 (host-1): predicted cpu ready 14% >= 10% around 14:00 UTC (p90 of 7 days)",
    ]);
    expect(out.metrics.cpuReadyPercent).to.equal(14);
    expect(out.metrics.cpuUsagePercent).to.equal(host.metrics!.cpuUsagePercent);
  });

  it("given filter: true, a predicted peak over a rejection threshold rejects", () => {
    const out = predictHeat(present, host, host.metrics, forecast({}, { cpuReadyPercent: peak(14) }), 24 * H, {
      ...policy,
      prediction: { ...ON, filter: true },
    })!;
    expect(out.assessment.heat).to.equal("hot");
    expect(out.assessment.rejections[0]).to.include({ code: "host_metric", metric: "cpu ready", value: 14, threshold: 10 });
  });

  it("given a horizon that ends before the peak, uses only the peaks within it", () => {
    const out = predictHeat(
      present,
      host,
      host.metrics,
      forecast({ cpuUsagePercent: peak(50, 600) }, { cpuReadyPercent: peak(14) }),
      2 * H,
      policy,
    )!;
    expect(out.assessment.heat).to.equal("cool");
    expect(out.metrics.cpuUsagePercent).to.equal(50);
    expect(out.metrics.cpuReadyPercent).to.equal(1);
  });

  it("given a predicted peak under the warn level, raises the scored metric without a reason", () => {
    // cpu usage warn level: 0.9 x 90 = 81
    const out = predictHeat(present, host, host.metrics, forecast({}, { cpuUsagePercent: peak(70) }), 24 * H, policy)!;
    expect(out.assessment.heat).to.equal("cool");
    expect(out.metrics.cpuUsagePercent).to.equal(70);
  });

  const unchanged: Array<{ name: string; run: () => unknown }> = [
    { name: "no forecast", run: () => predictHeat(present, host, host.metrics, undefined, 24 * H, policy) },
    { name: "a zero horizon", run: () => predictHeat(present, host, host.metrics, forecast({}, { cpuReadyPercent: peak(14) }), 0, policy) },
    {
      name: "peaks at or below the present",
      run: () =>
        predictHeat(present, host, host.metrics, forecast({}, { cpuReadyPercent: peak(1), cpuUsagePercent: peak(20) }), 24 * H, policy),
    },
    {
      name: "a counter vCenter did not return now (unknown stays unknown)",
      run: () => {
        const h = hostView({ metrics: { cpuReadyPercent: undefined } });
        return predictHeat(
          assessHost(h, undefined, DEFAULT_POLICY.thresholds, NOW_MS),
          h,
          h.metrics,
          forecast({}, { cpuReadyPercent: peak(14) }),
          24 * H,
          policy,
        );
      },
    },
    {
      name: "stale present metrics (no opinion stays no opinion)",
      run: () => {
        const h = hostView({ metrics: { sampledAtMs: NOW_MS - 600_000 } });
        return predictHeat(
          assessHost(h, undefined, DEFAULT_POLICY.thresholds, NOW_MS),
          h,
          h.metrics,
          forecast({}, { cpuReadyPercent: peak(14) }),
          24 * H,
          policy,
        );
      },
    },
  ];
  for (const c of unchanged) it(`given ${c.name}, changes nothing`, () => expect(c.run()).to.equal(undefined));
});

describe("filterNodes / prioritizeNodes with predicted heat", () => {
  const hosts = [hostView({ id: "host-1", name: "esx-peaky" }), hostView({ id: "host-2", name: "esx-flat" })];
  const vms = [
    vmView({ id: "vm-1", name: "n-peaky", hostId: "host-1", biosUuid: undefined }),
    vmView({ id: "vm-2", name: "n-flat", hostId: "host-2", biosUuid: undefined }),
  ];
  const base = inventoryOf(hosts, vms);
  const withForecast = { ...base, forecasts: new Map([["host-1", forecast({}, { cpuReadyPercent: peak(14) })]]) };
  const nodes = [{ name: "n-peaky" }, { name: "n-flat" }];
  const scores = (inventory: typeof base, p: PodMeta, policy = DEFAULT_POLICY) =>
    prioritizeNodes(p, nodes, { inventory, policy, nowMs: NOW_MS }).map((s) => s.score);

  it("given no history, scores exactly as the present alone", () => {
    expect(scores(base, pod())).to.deep.equal(scores({ ...base, forecasts: new Map() }, pod()));
    expect(scores(base, pod())[0]).to.equal(scores(base, pod())[1]);
  });

  it("given a host predicted over the ready threshold, a long-lived pod scores it at best warm (<= 4), below the flat host", () => {
    const [peaky, flat] = scores(withForecast, pod());
    expect(peaky).to.be.at.most(4);
    expect(flat).to.equal(scores(base, pod())[1]);
  });

  it("given a predicted peak that lowers a cool host's headroom, explain shows the headroom and base score the decision used", () => {
    const inventory = { ...base, forecasts: new Map([["host-1", forecast({ cpuUsagePercent: peak(70, 10 * 60) }, {})]]) };
    const ctx = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS };
    const [explained] = explainNodes(pod(), [nodes[0]!], ctx);
    const [scored] = prioritizeNodes(pod(), [nodes[0]!], ctx);
    expect(explained!.heat).to.equal("cool");
    expect(explained!.score).to.equal(scored!.score);
    expect(scored!.score).to.be.below(scores(base, pod())[0]!, "the peak costs headroom");
    expect(explained!.baseScore, "no penalty: the base is the score").to.equal(explained!.score);
    const cpu = explained!.headroom!.terms.find((t) => t.name === "cpu")!;
    expect(cpu.free).to.be.closeTo(1 - 70 / DEFAULT_POLICY.thresholds.hostCpuUsagePercent, 1e-9);
  });

  it("given a Job pod whose deadline ends before the peak, scores as the present alone", () => {
    const job = pod({ ownerKinds: ["Job"], activeDeadlineSeconds: 3600 });
    expect(scores(withForecast, job)).to.deep.equal(scores(base, job));
  });

  it("given prediction disabled, scores as the present alone", () => {
    const off = policyWith({ prediction: { ...ON, enabled: false } });
    expect(scores(withForecast, pod(), off)).to.deep.equal(scores(base, pod(), off));
  });

  it("given filter: false, passes the predicted-hot node; given filter: true, rejects it as unresolvable", () => {
    const ctx = { inventory: withForecast, nowMs: NOW_MS };
    expect(filterNodes(pod(), nodes, { ...ctx, policy: DEFAULT_POLICY }).passed).to.deep.equal(["n-peaky", "n-flat"]);
    const strict = filterNodes(pod(), nodes, { ...ctx, policy: policyWith({ prediction: { ...ON, filter: true } }) });
    expect(strict.passed).to.deep.equal(["n-flat"]);
    expect(formatReason(strict.unresolvable.get("n-peaky")![0]!)).to.match(
      /predicted cpu ready 14% >= 10% around 14:00 UTC \(p90 of 7 days\)/,
    );
  });
});
