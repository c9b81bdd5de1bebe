import { expect } from "chai";
import type { HostRef, Reason, ReasonCode } from "../../src/placement/reason.js";
import { HOST_METRIC_RULES, VM_METRIC_RULES, memoryState } from "../../src/placement/rules/index.js";
import { formatReasons } from "../../src/protocol/format-reason.js";
import { formatWireReasons, mentionsHostHeat, printfSafe } from "../../src/protocol/format-wire-reason.js";
import { parseExtenderArgs } from "../../src/protocol/parse-extender-args.js";
import { toFilterResultWire } from "../../src/protocol/to-extender-wire.js";
import {
  NOTE_LENGTH_LIMIT,
  failedSchedulingEvent,
  fitErrorMessage,
  goSprintfNoArgs,
  preemptionMessage,
  type ExtenderFilterReply,
} from "../fixtures/kube-scheduler-message.js";

const hostRef = (i: number): HostRef => ({ id: `host-${i}`, name: `esx-${String(i).padStart(3, "0")}.dc1.example.com` });

/** One reason of each code, its numbers varied by `i` (the host): the wire text must not vary with them. */
function reasonOfEach(i: number): Record<ReasonCode, Reason> {
  const host = hostRef(i);
  return {
    host_metric: { code: "host_metric", host, metric: "cpu ready", value: 10 + (i % 7), op: ">=", threshold: 10, unit: "%", ageS: i % 60 },
    vm_metric: {
      code: "vm_metric",
      host,
      vm: { id: `vm-${i}`, name: `k8s-worker-${i}` },
      metric: "balloon",
      value: 100 + i,
      op: ">",
      threshold: 0,
      unit: "MiB",
      ageS: i % 60,
    },
    host_maintenance: { code: "host_maintenance", host },
    host_connection: { code: "host_connection", host, state: i % 2 === 0 ? "DISCONNECTED" : "NOT_RESPONDING" },
    metrics_stale: { code: "metrics_stale", host, ageS: 300 + i, maxAgeS: 120 },
    metrics_missing: { code: "metrics_missing", host },
    inventory_stale: { code: "inventory_stale", host, ageS: 400 + i, maxAgeS: 120 },
    node_unmapped: { code: "node_unmapped", node: `k8s-worker-${i}` },
    vm_host_unknown: { code: "vm_host_unknown", vm: { id: `vm-${i}`, name: `k8s-worker-${i}` }, hostId: `host-${i + 9000}` },
    limit_overcommit: {
      code: "limit_overcommit",
      resource: "cpu",
      limits: 16_000 + i,
      allocatable: 7_800,
      ratio: (16_000 + i) / 7_800,
      max: 2,
    },
    stacked_overcommit: { code: "stacked_overcommit", host, cpuLimitsMilli: 96_000 + i, cores: 16, ratio: (96 + i / 1000) / 16, max: 4 },
    host_spread: { code: "host_spread", host, owner: `ReplicaSet/shop/web-${i}`, onHost: 3, leastOnCandidates: 1, maxSkew: 1 },
    workload_pool: {
      code: "workload_pool",
      host,
      workloadClass: "online",
      clusterName: `batch-${i}`,
      pool: { clusters: ["prod-online"], hostNames: [`esx-0${i}*`] },
    },
    correlated_burst: {
      code: "correlated_burst",
      host,
      owner: `ReplicaSet/shop/api-${i}`,
      groupMhz: 30_000 + i,
      roomMhz: 40_000,
      nonKubernetesMhz: 43_200,
      share: 0.75,
      max: 0.6,
    },
  };
}

describe("formatWireReasons", () => {
  const each = reasonOfEach(7);
  const cases: Array<{ name: string; reasons: Reason[]; want: string }> = [
    { name: "a hot host (cpu ready)", reasons: [each.host_metric], want: "node(s) on hot ESXi hosts (cpu ready)" },
    {
      name: "a host hot on two rules",
      reasons: [each.host_metric, { ...each.host_metric, metric: "balloon", value: 2048, threshold: 1024, unit: "MiB" } as Reason],
      want: "node(s) on hot ESXi hosts (cpu ready, balloon)",
    },
    {
      name: "a predicted peak",
      reasons: [{ ...each.host_metric, predicted: { minuteOfDay: 540, days: 14, percentile: 95 } } as Reason],
      want: "node(s) on ESXi hosts predicted hot (cpu ready)",
    },
    {
      name: "a value raised by pods bound since",
      reasons: [{ ...each.host_metric, pendingPods: 3 } as Reason],
      want: "node(s) on hot ESXi hosts (cpu ready)",
    },
    { name: "the node's own VM ballooning", reasons: [each.vm_metric], want: "node(s) with a hot VM (balloon)" },
    {
      name: "a hot host and a hot VM",
      reasons: [each.host_metric, each.vm_metric],
      want: "node(s) on hot ESXi hosts (cpu ready) and with a hot VM (balloon)",
    },
    { name: "a host in maintenance", reasons: [each.host_maintenance], want: "node(s) on ESXi hosts in maintenance" },
    { name: "a disconnected host", reasons: [each.host_connection], want: "node(s) on ESXi hosts not connected to vCenter" },
    { name: "stale metrics", reasons: [each.metrics_stale], want: "node(s) on ESXi hosts with stale metrics" },
    { name: "missing metrics", reasons: [each.metrics_missing], want: "node(s) on ESXi hosts without metrics" },
    { name: "a stale inventory", reasons: [each.inventory_stale], want: "node(s) on ESXi hosts with a stale vCenter inventory" },
    { name: "an unmapped node", reasons: [each.node_unmapped], want: "node(s) without a matching vSphere VM" },
    { name: "a VM on an unknown host", reasons: [each.vm_host_unknown], want: "node(s) with a VM on an unknown ESXi host" },
    { name: "cpu limits over the cap", reasons: [each.limit_overcommit], want: "node(s) over the limit overcommit cap (cpu)" },
    {
      name: "cpu and memory limits over the cap",
      reasons: [each.limit_overcommit, { ...each.limit_overcommit, resource: "memory" } as Reason],
      want: "node(s) over the limit overcommit cap (cpu, memory)",
    },
    { name: "stacked overcommit", reasons: [each.stacked_overcommit], want: "node(s) on ESXi hosts over the stacked overcommit cap (cpu)" },
    { name: "a required host spread", reasons: [each.host_spread], want: "node(s) on ESXi hosts over the pod's host spread skew" },
    {
      name: "a host outside the pod's class pool",
      reasons: [each.workload_pool],
      want: "node(s) on ESXi hosts outside the pod's workload class pool (online)",
    },
  ];
  for (const c of cases) it(`given ${c.name}, returns "${c.want}"`, () => expect(formatWireReasons(c.reasons)).to.equal(c.want));

  it("given the same reasons on two hosts with different values and ages, returns one text (kube-scheduler counts it once)", () => {
    const [a, b] = [reasonOfEach(1), reasonOfEach(2)];
    for (const code of Object.keys(a) as ReasonCode[]) expect(formatWireReasons([a[code]]), code).to.equal(formatWireReasons([b[code]]));
  });

  it("given any reason code, returns text without a % nor a host, VM or node name", () => {
    const each = reasonOfEach(42);
    for (const [code, reason] of Object.entries(each)) {
      const text = formatWireReasons([reason]);
      expect(text, code).not.to.include("%");
      expect(text, code).not.to.match(/esx-042|k8s-worker-42|host-42|vm-42/);
    }
  });

  it("given every declared metric rule, names it by its metric text, without a %", () => {
    const host = hostRef(1);
    for (const rule of [...HOST_METRIC_RULES, memoryState]) {
      const text = formatWireReasons([
        { code: "host_metric", host, metric: rule.metric, value: 99, op: ">=", threshold: 90, unit: "%", ageS: 5 },
      ]);
      expect(text).to.equal(`node(s) on hot ESXi hosts (${rule.metric})`);
    }
    for (const rule of VM_METRIC_RULES) {
      const text = formatWireReasons([
        {
          code: "vm_metric",
          host,
          vm: { id: "vm-1", name: "w" },
          metric: rule.metric,
          value: 99,
          op: ">=",
          threshold: 90,
          unit: "%",
          ageS: 5,
        },
      ]);
      expect(text).to.equal(`node(s) with a hot VM (${rule.metric})`);
    }
  });
});

describe("mentionsHostHeat", () => {
  const ready: Reason = {
    code: "host_metric",
    host: hostRef(1),
    metric: "cpu ready",
    value: 14,
    op: ">=",
    threshold: 10,
    unit: "%",
    ageS: 3,
  };
  const cases: Array<{ name: string; message: string; want: boolean }> = [
    { name: "a hot host's wire text, aggregated", message: `0/3 nodes are available: 3 ${formatWireReasons([ready])}.`, want: true },
    {
      name: "a hot VM's wire text",
      message: `0/1 nodes are available: 1 ${formatWireReasons([{ code: "vm_metric", host: hostRef(1), vm: { id: "vm-1", name: "n1" }, metric: "balloon", value: 64, op: ">", threshold: 0, unit: "MiB", ageS: 3 }])}.`,
      want: true,
    },
    { name: "kube-scheduler's own reasons alone", message: "0/3 nodes are available: 3 Insufficient cpu.", want: false },
    { name: "hvx's maintenance text (not heat)", message: "0/1 nodes are available: 1 node(s) on ESXi hosts in maintenance.", want: false },
  ];
  for (const c of cases) it(`given ${c.name}, returns ${c.want}`, () => expect(mentionsHostHeat(c.message)).to.equal(c.want));
});

describe("printfSafe", () => {
  it('given "14% >= 10%", returns it with "pct" for each %', () => expect(printfSafe("14% >= 10%")).to.equal("14pct >= 10pct"));
  it("given text without %, returns it unchanged", () => expect(printfSafe("hvx: internal error")).to.equal("hvx: internal error"));
});

describe("the FailedScheduling message kube-scheduler builds from hvx's filter reply", () => {
  const NODES = 5000;
  const HOSTS = 250;

  /** 5000 candidates on 250 hosts (20 nodes each), every reason kind, values and ages varying per host. */
  function rejectEveryNode(): { passed: string[]; failed: Map<string, Reason[]>; unresolvable: Map<string, Reason[]>; decisions: [] } {
    const kinds: ReasonCode[][] = [
      ["host_metric"],
      ["host_metric", "vm_metric"],
      ["vm_metric"],
      ["host_maintenance"],
      ["host_connection"],
      ["metrics_stale"],
      ["metrics_missing"],
      ["inventory_stale"],
      ["node_unmapped"],
      ["vm_host_unknown"],
      ["stacked_overcommit"],
      ["host_spread"],
      ["limit_overcommit"],
    ];
    const failed = new Map<string, Reason[]>();
    const unresolvable = new Map<string, Reason[]>();
    for (let n = 0; n < NODES; n++) {
      const host = n % HOSTS;
      const each = reasonOfEach(host);
      const codes = kinds[host % kinds.length]!;
      const reasons = codes.map((code) => each[code]);
      if (host === 1) reasons[0] = { ...each.host_metric, predicted: { minuteOfDay: 540, days: 14, percentile: 95 } } as Reason;
      if (host === 0) reasons.push({ ...each.host_metric, metric: "swap-in rate", value: 2048, threshold: 1024, unit: "KB/s" } as Reason);
      (codes[0] === "limit_overcommit" ? failed : unresolvable).set(`k8s-worker-${n}`, reasons);
    }
    return { passed: [], failed, unresolvable, decisions: [] };
  }

  function replyOf(textOf?: (reasons: readonly Reason[]) => string): ExtenderFilterReply {
    const outcome = rejectEveryNode();
    const req = parseExtenderArgs({ Pod: {}, Nodes: null, NodeNames: [...outcome.failed.keys(), ...outcome.unresolvable.keys()] });
    return toFilterResultWire(req, outcome, textOf);
  }

  it("given 5000 candidates rejected for every reason kind, stays under 1024 bytes with preemption's part, and printf changes nothing", () => {
    const reply = replyOf();
    const message = fitErrorMessage(NODES, reply, preemptionMessage(NODES, reply));
    expect(Buffer.byteLength(message)).to.be.below(NOTE_LENGTH_LIMIT);
    const event = failedSchedulingEvent(message);
    expect(event).not.to.include("%!");
    expect(event).to.equal(message);
    expect(message).to.match(/^0\/5000 nodes are available: \d+ node\(s\) /);
    expect(message).to.include(" node(s) on hot ESXi hosts (cpu ready),");
    expect(message).to.include(" node(s) on hot ESXi hosts (cpu ready) and with a hot VM (balloon),");
    expect(message).to.include(" node(s) over the limit overcommit cap (cpu)");
  });

  it("given the detailed text on the wire (the old reply), the same message overflows and printf garbles it", () => {
    const reply = replyOf(formatReasons);
    const message = fitErrorMessage(NODES, reply);
    expect(Buffer.byteLength(message)).to.be.above(NOTE_LENGTH_LIMIT);
    expect(failedSchedulingEvent(message)).to.include("%!");
  });
});

describe("kube-scheduler message helpers (test/fixtures/kube-scheduler-message.ts)", () => {
  it("given the issue's reason, printf garbles it as kube-scheduler's event showed it", () => {
    expect(goSprintfNoArgs("cpu ready 14% >= 10% (sampled 14s ago)")).to.equal("cpu ready 14%!>(MISSING)= 10%!((MISSING)sampled 14s ago)");
  });

  it("given %% and a trailing %, printf writes a % and %!(NOVERB)", () =>
    expect(goSprintfNoArgs("100%% of 5%")).to.equal("100% of 5%!(NOVERB)"));

  it("given counts 17, 412 and 5, sorts the histogram as Go's sort.Strings does (bytes, not numbers)", () => {
    const reasons = (n: number, text: string, from: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`n${from + i}`, text]));
    const reply = { FailedNodes: reasons(5, "c", 0), FailedAndUnresolvableNodes: { ...reasons(17, "a", 100), ...reasons(412, "b", 200) } };
    expect(fitErrorMessage(434, reply)).to.equal("0/434 nodes are available: 17 a, 412 b, 5 c.");
  });

  it("given a node in both maps, counts its FailedAndUnresolvableNodes text only", () => {
    expect(fitErrorMessage(1, { FailedNodes: { n: "x" }, FailedAndUnresolvableNodes: { n: "y" } })).to.equal(
      "0/1 nodes are available: 1 y.",
    );
  });
});
