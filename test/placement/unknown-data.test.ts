import { expect } from "chai";
import type { InventoryView } from "../../src/model/inventory.js";
import { decideNode } from "../../src/placement/decide-node.js";
import { prioritizeNodes } from "../../src/placement/filter-nodes.js";
import { formatReason } from "../../src/protocol/format-reason.js";
import { buildDebugHosts } from "../../src/server/debug-view.js";
import { assembleInventory, type PolledHost } from "../../src/vsphere/assemble-inventory.js";
import type { EntitySample } from "../../src/vsphere/perf-samples.js";
import { amounts, clusterViewOf, nodeView, podMetaOf, podView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

/**
 * Issue 8 §3 "Unknown means no opinion, everywhere": snapshots built by the production
 * assembly (src/vsphere/assemble-inventory.ts), judged by the production placement code.
 */
const MAX_AGE_S = DEFAULT_POLICY.thresholds.maxMetricAgeSeconds;
const NODE = { name: "k8s-worker-01" };
const pod = { namespace: "payments", name: "api-1", ownerKinds: ["ReplicaSet"], annotations: {} };

interface Snapshot {
  /** Host counters by name (vCenter units); undefined: no host-level sample at all. */
  readonly host?: Record<string, number>;
  /** The node VM's counters; undefined: no VM sample. */
  readonly vm?: Record<string, number>;
  readonly sampledAtMs?: number;
  readonly polledAtMs?: number;
  readonly maintenance?: boolean;
  readonly connection?: string;
}

function snapshot(s: Snapshot): InventoryView {
  const sampledAtMs = s.sampledAtMs ?? NOW_MS - 14_000;
  const sample = (values: Record<string, number>): EntitySample => ({
    sampledAtMs,
    intervalS: 20,
    values: new Map(Object.entries(values)),
  });
  const polled: PolledHost = {
    host: { host: "host-1", name: "esx-01", connection_state: s.connection ?? "CONNECTED", power_state: "POWERED_ON" },
    summary: {
      hardware: { numCpuCores: 32, cpuMhz: 2600, memorySize: 512 * 1024 ** 3 },
      runtime: { inMaintenanceMode: s.maintenance ?? false, connectionState: "connected" },
    },
    vms: [{ vm: "vm-1", name: NODE.name, power_state: "POWERED_ON", cpu_count: 8, memory_size_MiB: 32768 }],
  };
  const samples = new Map<string, EntitySample>();
  if (s.host) samples.set("host-1", sample(s.host));
  if (s.vm) samples.set("vm-1", sample(s.vm));
  return assembleInventory({
    hosts: [polled],
    samples,
    biosUuids: new Map(),
    memStateScale: "five",
    polledAtMs: s.polledAtMs ?? NOW_MS - 5_000,
  });
}

const decide = (inv: InventoryView, nowMs = NOW_MS) => decideNode(NODE, pod, { inventory: inv, policy: DEFAULT_POLICY, nowMs });
const QUIET_HOST = {
  "cpu.usage.average": 2000,
  "mem.usage.average": 3000,
  "mem.vmmemctl.average": 0,
  "mem.swapinRate.average": 0,
  "mem.state.latest": 0,
};
const QUIET_VM = { "cpu.ready.summation": 400, "mem.vmmemctl.average": 0 };

describe("unknown data: missing counters are unknown, not perfect", () => {
  it("given no host-level sample (only the node VM's), has no opinion: unknownScore and metrics_missing", () => {
    const d = decide(snapshot({ vm: QUIET_VM }));
    expect(d.noOpinion).to.equal(true);
    expect(d.score).to.equal(DEFAULT_POLICY.scoring.unknownScore);
    expect(d.reasons.map((r) => r.code)).to.deep.equal(["metrics_missing"]);
  });

  it("given no host-level sample, the host's sample time does not fall back to its VMs' (no age, heat unknown in /debug)", () => {
    const inv = snapshot({ vm: QUIET_VM });
    expect(inv.hosts.get("host-1")?.metrics?.sampledAtMs).to.equal(undefined);
    const debug = buildDebugHosts(inv, DEFAULT_POLICY, NOW_MS).hosts[0]!;
    expect(debug.ageSeconds).to.equal(null);
    expect(debug.heat).to.equal("unknown");
    expect(debug.vms[0]!.heat).to.equal("unknown");
  });

  it("given no host-level sample, a hot node VM is still rejected by its own VM rule (the host stays unknown)", () => {
    const inv = snapshot({ vm: { "cpu.ready.summation": 32_000 } }); // 32000/20000/8 = 20 %
    const d = decide(inv);
    expect([d.verdict, d.unresolvable]).to.deep.equal(["reject", true]);
    expect(d.reasons.map(formatReason)).to.deep.equal([
      "ESXi host esx-01 (host-1): VM k8s-worker-01 (vm-1) cpu ready 20% >= 10% (sampled 14s ago)",
    ]);
    const debug = buildDebugHosts(inv, DEFAULT_POLICY, NOW_MS).hosts[0]!;
    expect([debug.heat, debug.vms[0]!.heat]).to.deep.equal(["unknown", "hot"]);
  });

  it("given no host-level sample, a node VM at the ready warn level is not rejected and keeps the unknown score", () => {
    const d = decide(snapshot({ vm: { "cpu.ready.summation": 9_600 } })); // 9600/20000/8 = 6 %: warn (5), not reject (10)
    expect([d.verdict, d.noOpinion, d.score]).to.deep.equal(["pass", true, DEFAULT_POLICY.scoring.unknownScore]);
  });

  it("given a host sample whose every counter vCenter returned as -1 (dropped) and no VM ready, has no opinion instead of scoring 10", () => {
    const d = decide(snapshot({ host: {}, vm: {} }));
    expect(d.noOpinion).to.equal(true);
    expect(d.score).to.equal(DEFAULT_POLICY.scoring.unknownScore);
  });

  it("given a host sample with none of its own counters while its quiet VMs report ready and balloon, has no opinion instead of scoring 10", () => {
    // before: ready 0.25 % and balloon 0 from the VMs, stamped with the host's sample time: headroom 0.98 -> 10
    const inv = snapshot({ host: {}, vm: QUIET_VM });
    expect(inv.hosts.get("host-1")?.metrics).to.equal(undefined);
    const d = decide(inv);
    expect([d.verdict, d.noOpinion, d.score]).to.deep.equal(["pass", true, DEFAULT_POLICY.scoring.unknownScore]);
    expect(d.reasons.map((r) => r.code)).to.deep.equal(["metrics_missing"]);
    const debug = buildDebugHosts(inv, DEFAULT_POLICY, NOW_MS).hosts[0]!;
    expect([debug.heat, debug.ageSeconds, debug.metrics]).to.deep.equal(["unknown", null, null]);
  });

  it("given only cpu usage 80 % and ready 0.25 % known, scores on the known terms (8), not as if memory and reclaim were free (9)", () => {
    // known terms: 0.4 x (1 - 0.25/10) + 0.3 x (1 - 80/90) = 0.39 + 0.0333 over weight 0.7 = 0.605 -> 5 + round(3.02) = 8
    const d = decide(snapshot({ host: { "cpu.usage.average": 8000 }, vm: QUIET_VM }));
    expect(d.noOpinion).to.equal(false);
    expect(d.score).to.equal(8);
  });

  it("given every counter, scores on all four terms as before (9)", () => {
    // 0.4 x 0.975 + 0.3 x (1 - 20/90) + 0.2 x (1 - 30/95) + 0.1 x 1 = 0.86 -> 5 + round(4.3) = 9
    expect(decide(snapshot({ host: QUIET_HOST, vm: QUIET_VM })).score).to.equal(9);
  });
});

describe("unknown data: state rules go stale with the inventory", () => {
  it("given a host in maintenance in an inventory older than maxMetricAgeSeconds, has no opinion instead of rejecting forever", () => {
    const d = decide(
      snapshot({ host: QUIET_HOST, vm: QUIET_VM, maintenance: true, polledAtMs: NOW_MS - 600_000, sampledAtMs: NOW_MS - 600_000 }),
    );
    expect(d.verdict).to.equal("pass");
    expect(d.noOpinion).to.equal(true);
    expect(d.reasons.map((r) => r.code)).to.deep.equal(["inventory_stale"]);
  });

  it("given a NOT_RESPONDING host in a stale inventory, has no opinion", () => {
    const d = decide(snapshot({ connection: "NOT_RESPONDING", polledAtMs: NOW_MS - 600_000 }));
    expect([d.verdict, d.noOpinion]).to.deep.equal(["pass", true]);
  });

  it("given a host in maintenance with stale metrics but a fresh inventory, still rejects (state rules ignore the metrics' age)", () => {
    const d = decide(snapshot({ host: QUIET_HOST, maintenance: true, sampledAtMs: NOW_MS - 600_000 }));
    expect(d.verdict).to.equal("reject");
    expect(d.reasons.map((r) => r.code)).to.deep.equal(["host_maintenance"]);
  });

  it("given a NOT_RESPONDING host without any sample but a fresh inventory, still rejects", () => {
    const d = decide(snapshot({ connection: "NOT_RESPONDING" }));
    expect(d.verdict).to.equal("reject");
  });

  it("given an inventory exactly maxMetricAgeSeconds old, the maintenance rule still rejects; 1 s past, no opinion", () => {
    const inv = snapshot({ host: QUIET_HOST, maintenance: true, polledAtMs: NOW_MS - MAX_AGE_S * 1000 });
    expect(decide(inv).verdict).to.equal("reject");
    const later = decide(inv, NOW_MS + 1000);
    expect([later.verdict, later.noOpinion]).to.deep.equal(["pass", true]);
  });

  it("given a stale inventory, /debug shows the host as unknown with the reason", () => {
    const inv = snapshot({ host: QUIET_HOST, maintenance: true, polledAtMs: NOW_MS - 600_000, sampledAtMs: NOW_MS - 600_000 });
    const h = buildDebugHosts(inv, DEFAULT_POLICY, NOW_MS).hosts[0]!;
    expect(h.heat).to.equal("unknown");
    expect(h.rejections).to.deep.equal([]);
    expect(h.stale).to.equal("ESXi host esx-01 (host-1): vCenter inventory read 600s ago, older than 120s");
  });
});

describe("unknown data: the same snapshot object on a later clock (vCenter down, poller serving its last snapshot)", () => {
  it("ages the reasons, then has no opinion on the metrics, then none on the host at all", () => {
    // sampled 14 s and polled 5 s before NOW_MS; host cpu usage 92 % >= 90 %
    const inv = snapshot({ host: { ...QUIET_HOST, "cpu.usage.average": 9200 }, vm: QUIET_VM, maintenance: true });
    const texts = (nowMs: number) => decide(inv, nowMs).reasons.map(formatReason);
    expect(texts(NOW_MS)).to.deep.equal([
      "ESXi host esx-01 (host-1): in maintenance mode",
      "ESXi host esx-01 (host-1): cpu usage 92% >= 90% (sampled 14s ago)",
    ]);
    expect(texts(NOW_MS + 100_000)).to.deep.equal([
      "ESXi host esx-01 (host-1): in maintenance mode",
      "ESXi host esx-01 (host-1): cpu usage 92% >= 90% (sampled 114s ago)",
    ]);
    // metrics stale (121 s), inventory still fresh (111 s): the state rule alone
    expect(texts(NOW_MS + 107_000)).to.deep.equal(["ESXi host esx-01 (host-1): in maintenance mode"]);
    // inventory 121 s old: no opinion at all
    const d = decide(inv, NOW_MS + 116_000);
    expect([d.verdict, d.noOpinion]).to.deep.equal(["pass", true]);
    expect(d.reasons.map(formatReason)).to.deep.equal(["ESXi host esx-01 (host-1): vCenter inventory read 121s ago, older than 120s"]);
  });
});

describe("unknown data: stale hosts keep the Kubernetes-layer penalties", () => {
  // Two hosts with stale metrics; host-1 already runs two replicas of the incoming pod's owner.
  const OWNER = "ReplicaSet/payments/api-7d9";
  const stale = { sampledAtMs: NOW_MS - 600_000 };
  const inventory = inventoryOf(
    [hostView({ id: "host-1", name: "esx-1", metrics: stale }), hostView({ id: "host-2", name: "esx-2", metrics: stale })],
    [
      vmView({ id: "vm-1", name: "n-1", hostId: "host-1", biosUuid: undefined }),
      vmView({ id: "vm-2", name: "n-2", hostId: "host-2", biosUuid: undefined }),
    ],
  );
  const incoming = podView({ uid: "incoming", ownerKey: OWNER, boundAtMs: undefined });
  const replicas = [podView({ nodeName: "n-1", ownerKey: OWNER }), podView({ nodeName: "n-1", ownerKey: OWNER })];
  const view = clusterViewOf([nodeView({ name: "n-1" }), nodeView({ name: "n-2" })], replicas);
  const ctx = { inventory, policy: DEFAULT_POLICY, nowMs: NOW_MS, cluster: { view, pod: incoming } };

  it("given two stale hosts, takes the spread penalty off the crowded one's unknown score", () => {
    const scores = Object.fromEntries(
      prioritizeNodes(podMetaOf(incoming), [{ name: "n-1" }, { name: "n-2" }], ctx).map((s) => [s.node, s.score]),
    );
    // 2 replicas above the least loaded candidate x 2 points = 4: 5 - 4 = 1
    expect(scores).to.deep.equal({ "n-1": 1, "n-2": 5 });
  });

  it("given a stale host near the stacked overcommit maximum, takes the stacked penalty off its unknown score", () => {
    // 32 cores x 4.0 = 128 CPUs of limits at most; 124 CPUs on the host is 96.9 % -> ceil(4 x 0.219 / 0.25) = 4 points
    const crowded = [podView({ nodeName: "n-1", limits: amounts(124, 1) })];
    const c = {
      ...ctx,
      cluster: {
        view: clusterViewOf([nodeView({ name: "n-1", allocatable: amounts(500, 30) }), nodeView({ name: "n-2" })], crowded),
        pod: podView({ uid: "x", boundAtMs: undefined, limits: amounts(0, 0) }),
      },
    };
    const d = decideNode({ name: "n-1" }, podMetaOf(incoming), c);
    expect([d.noOpinion, d.score]).to.deep.equal([true, 1]);
  });
});
