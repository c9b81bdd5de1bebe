import { expect } from "chai";
import type { HostMetrics } from "../../src/model/inventory.js";
import { filterNodes } from "../../src/placement/filter-nodes.js";
import type { PodMeta } from "../../src/placement/exemption.js";
import { heatRejectingHosts, requeueDue, type HeldPod } from "../../src/placement/requeue-due.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const pod: PodMeta = { namespace: "shop", name: "web-1", ownerKinds: ["ReplicaSet"], annotations: {} };

/** One node VM per host, named n-<host>. */
function inventory(hosts: Array<{ id: string; metrics?: Partial<HostMetrics>; inMaintenance?: boolean }>) {
  return inventoryOf(
    hosts.map((h) =>
      hostView({ id: h.id, name: `esx-${h.id}`, inMaintenance: h.inMaintenance ?? false, ...(h.metrics ? { metrics: h.metrics } : {}) }),
    ),
    hosts.map((h) => vmView({ id: `vm-${h.id}`, name: `n-${h.id}`, hostId: h.id, biosUuid: undefined })),
  );
}

function held(hostIds: string[]): HeldPod {
  return { uid: `uid-${hostIds.join("-")}`, namespace: "shop", name: `web-${hostIds.join("-")}`, hostIds, atMs: NOW_MS - 60_000 };
}

describe("heatRejectingHosts", () => {
  // Default thresholds: cpu ready >= 10 %.
  const cases: Array<{ name: string; hosts: Parameters<typeof inventory>[0]; want: string[] }> = [
    {
      name: "given every candidate rejected for heat, returns their hosts",
      hosts: [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", metrics: { cpuReadyPercent: 12 } },
      ],
      want: ["a", "b"],
    },
    {
      name: "given one node passing, returns none (kube-scheduler places the pod)",
      hosts: [{ id: "a", metrics: { cpuReadyPercent: 14 } }, { id: "b" }],
      want: [],
    },
    { name: "given every candidate rejected for maintenance only, returns none", hosts: [{ id: "a", inMaintenance: true }], want: [] },
    {
      name: "given one host hot and one in maintenance, returns the hot one",
      hosts: [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", inMaintenance: true },
      ],
      want: ["a"],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const nodes = c.hosts.map((h) => ({ name: `n-${h.id}` }));
      const outcome = filterNodes(pod, nodes, { inventory: inventory(c.hosts), policy: DEFAULT_POLICY, nowMs: NOW_MS });
      expect(heatRejectingHosts(outcome)).to.deep.equal(c.want);
    });
  }
});

describe("requeueDue", () => {
  const cases: Array<{ name: string; hosts: Parameters<typeof inventory>[0]; pods: HeldPod[]; want: string[] }> = [
    {
      name: "given its host still hot, returns nothing",
      hosts: [{ id: "a", metrics: { cpuReadyPercent: 14 } }],
      pods: [held(["a"])],
      want: [],
    },
    {
      name: "given its host cooled (ready 3 % < 10 %), returns the pod",
      hosts: [{ id: "a", metrics: { cpuReadyPercent: 3 } }],
      pods: [held(["a"])],
      want: ["web-a"],
    },
    {
      name: "given one of its two hosts cooled, returns the pod (its nodes there pass now)",
      hosts: [
        { id: "a", metrics: { cpuReadyPercent: 14 } },
        { id: "b", metrics: { cpuReadyPercent: 3 } },
      ],
      pods: [held(["a", "b"]), held(["a"])],
      want: ["web-a-b"],
    },
    {
      // maintenance is not heat: the heat that rejected the pod is gone, the filter now says why it still refuses
      name: "given its host no longer hot but in maintenance, returns the pod",
      hosts: [{ id: "a", metrics: { cpuReadyPercent: 3 }, inMaintenance: true }],
      pods: [held(["a"])],
      want: ["web-a"],
    },
    {
      name: "given a pod taken over after a restart (its hosts not known), returns it at once, whatever the hosts' heat",
      hosts: [{ id: "a", metrics: { cpuReadyPercent: 14 } }],
      pods: [held([])],
      want: ["web-"],
    },
    {
      name: "given its host gone from the inventory, returns the pod (hvx no longer rejects it)",
      hosts: [],
      pods: [held(["a"])],
      want: ["web-a"],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const due = requeueDue(c.pods, inventory(c.hosts), DEFAULT_POLICY.thresholds, NOW_MS);
      expect(due.map((p) => p.name)).to.deep.equal(c.want);
    });
  }

  it("given stale metrics (sampled past maxMetricAgeSeconds), returns the pod: hvx has no opinion on the host now", () => {
    const stale = inventoryOf(
      [hostView({ id: "a", metrics: { cpuReadyPercent: 14, sampledAtMs: NOW_MS - 3_600_000 } })],
      [vmView({ id: "vm-a", name: "n-a", hostId: "a", biosUuid: undefined })],
    );
    expect(requeueDue([held(["a"])], stale, DEFAULT_POLICY.thresholds, NOW_MS).map((p) => p.name)).to.deep.equal(["web-a"]);
  });
});
