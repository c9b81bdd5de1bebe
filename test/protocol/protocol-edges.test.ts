import { expect } from "chai";
import { readFileSync } from "node:fs";
import { parseAdmissionReview } from "../../src/protocol/admission-review.js";
import { formatReason, formatReasons } from "../../src/protocol/format-reason.js";
import { desiredNodeMarks } from "../../src/placement/node-marks.js";
import { ExtenderArgsError, parseExtenderArgs, toPodMeta } from "../../src/protocol/parse-extender-args.js";
import { toFilterResultWire } from "../../src/protocol/to-extender-wire.js";
import type { Reason } from "../../src/placement/reason.js";
import type { WirePod } from "../../src/protocol/extender-wire.js";
import { clusterViewOf, nodeView } from "../fixtures/cluster.js";
import { hostView, inventoryOf, NOW_MS, vmView } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// Edges and messages found by mutation testing (docs/testing.md): each case fails on a
// change to src/protocol that the other tests let through.

const EXAMPLES = new URL("../../../test/oversell/examples/", import.meta.url);
const requestText = readFileSync(new URL("admissionreview-request-pod-create.json", EXAMPLES), "utf8");
type Body = Record<string, unknown> & { request: Record<string, unknown> };
const review = (edit: (r: Record<string, unknown>) => void = () => undefined): Body => {
  const b = JSON.parse(requestText) as Body;
  edit(b.request);
  return b;
};
const messageOf = (body: unknown): string | undefined => {
  const r = parseAdmissionReview(body);
  return r.ok ? undefined : r.message;
};

describe("parseAdmissionReview edges", () => {
  it("refuses a null body or request without throwing", () => {
    expect(messageOf(null)).to.equal("malformed AdmissionReview: body is not a JSON object");
    expect(messageOf({ ...review(), request: null })).to.equal("malformed AdmissionReview: request is missing or not an object");
  });

  it("accepts each admission operation", () => {
    for (const op of ["CREATE", "UPDATE", "DELETE", "CONNECT"])
      expect(messageOf(review((r) => (r.operation = op))), op).to.equal(undefined);
  });

  it("names the field and what it must be", () => {
    const cases: Array<[(r: Record<string, unknown>) => void, string]> = [
      [(r) => (r.uid = 7), "request.uid must be a non-empty string"],
      [(r) => (r.resource = { group: "", version: "v1" }), "request.resource must be {group, version, resource} strings"],
      [(r) => (r.kind = { group: 1, version: "v1", kind: "Pod" }), "request.kind must be {group, version, kind} strings"],
      [(r) => (r.kind = { group: "", kind: "Pod" }), "request.kind must be {group, version, kind} strings"],
      [(r) => (r.kind = [""]), "request.kind must be {group, version, kind} strings"],
      [(r) => (r.requestKind = { group: "", version: "v1" }), "request.requestKind must be {group, version, kind} strings"],
      [(r) => (r.requestResource = { group: "", version: "v1" }), "request.requestResource must be {group, version, resource} strings"],
      [(r) => (r.userInfo = "admin"), "request.userInfo must be an object"],
      [(r) => (r.userInfo = []), "request.userInfo must be an object"],
      [(r) => (r.object = []), "request.object must be an object or null"],
      [(r) => (r.operation = "PATCH"), 'request.operation must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"'],
    ];
    for (const [edit, want] of cases) expect(messageOf(review(edit))).to.equal(`malformed AdmissionReview: ${want}`);
    expect(messageOf({ ...review(), request: [] })).to.equal("malformed AdmissionReview: request is missing or not an object");
  });

  it("checks subResource, requestSubResource, name and namespace are strings when present", () => {
    for (const key of ["subResource", "requestSubResource", "name", "namespace"]) {
      expect(messageOf(review((r) => (r[key] = 1)))).to.equal(`malformed AdmissionReview: request.${key} must be a string`);
      expect(messageOf(review((r) => (r[key] = null))), `${key}: null`).to.equal(undefined);
      expect(messageOf(review((r) => (r[key] = "x"))), `${key}: a string`).to.equal(undefined);
      expect(messageOf(review((r) => delete r[key])), `${key}: absent`).to.equal(undefined);
    }
  });

  it("accepts the optional fields absent or null", () => {
    for (const key of ["requestKind", "requestResource", "userInfo", "dryRun", "object"]) {
      expect(messageOf(review((r) => delete r[key])), `${key}: absent`).to.equal(undefined);
      expect(messageOf(review((r) => (r[key] = null))), `${key}: null`).to.equal(undefined);
    }
    expect(messageOf(review((r) => (r.dryRun = true)))).to.equal(undefined);
  });

  it("shows a long bad value cut at 60 characters", () => {
    const op = (n: number) => "X".repeat(n);
    // JSON.stringify adds two quotes: 58 X = 60 characters shown whole, 59 X = 61 cut to 57 + "..."
    expect(messageOf(review((r) => (r.operation = op(58))))).to.match(new RegExp(`got "${op(58)}"$`));
    expect(messageOf(review((r) => (r.operation = op(59))))).to.match(new RegExp(`got "${op(56)}\\.\\.\\.$`));
  });
});

describe("parseExtenderArgs edges", () => {
  const names = { NodeNames: ["a"] };
  it("names the field that is wrong", () => {
    const cases: Array<[unknown, string]> = [
      [{ Pod: [], ...names }, "missing or invalid `Pod`: expected a v1.Pod object"],
      [{ Pod: {} }, "neither `Nodes` nor `NodeNames` is set: nothing to filter"],
      [{ Pod: {}, Nodes: { items: ["n"] } }, "Nodes.items[0] must be a v1.Node object"],
      [{ Pod: {}, Nodes: { items: [{ metadata: { name: "" } }] } }, "Nodes.items[0].metadata.name must be a non-empty string"],
      [{ Pod: { metadata: "m" }, ...names }, "`Pod.metadata` must be an object"],
      [{ Pod: { metadata: { ownerReferences: {} } }, ...names }, "`Pod.metadata.ownerReferences` must be an array"],
      [{ Pod: { spec: "s" }, ...names }, "`Pod.spec` must be an object"],
    ];
    for (const [body, want] of cases) {
      let err: unknown;
      try {
        parseExtenderArgs(body);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(ExtenderArgsError);
      expect((err as Error).message).to.equal(want);
      expect((err as Error).name).to.equal("ExtenderArgsError");
    }
  });

  it("refuses a null body or Pod with ExtenderArgsError", () => {
    expect(() => parseExtenderArgs(null)).to.throw(ExtenderArgsError, "request body must be a JSON object (ExtenderArgs)");
    expect(() => parseExtenderArgs({ Pod: null, NodeNames: [] })).to.throw(ExtenderArgsError, "missing or invalid `Pod`");
  });

  it("keeps providerID and systemUUID only when they are strings", () => {
    const parsed = parseExtenderArgs({
      Pod: {},
      Nodes: {
        items: [
          { metadata: { name: "w1" }, spec: { providerID: 5 }, status: { nodeInfo: { systemUUID: null } } },
          { metadata: { name: "w2" } },
        ],
      },
    });
    expect(parsed.nodes).to.deep.equal([{ name: "w1" }, { name: "w2" }]);
  });

  it("reads the pod with defaults for what is absent, and only the typed fields present", () => {
    expect(toPodMeta({} as WirePod)).to.deep.equal({ namespace: "default", name: "", ownerKinds: [], annotations: {} });
    expect(toPodMeta({ metadata: { namespace: "", generateName: "web-" } } as WirePod)).to.deep.equal({
      namespace: "default",
      name: "web-",
      ownerKinds: [],
      annotations: {},
    });
    expect(
      toPodMeta({
        metadata: { namespace: "shop", name: "web-1", ownerReferences: [{ kind: "ReplicaSet" }, { kind: 3 }, "x"] },
        spec: { priorityClassName: "high", priority: 1000, preemptionPolicy: "Never" },
      } as unknown as WirePod),
    ).to.deep.equal({
      namespace: "shop",
      name: "web-1",
      ownerKinds: ["ReplicaSet", "", ""],
      priorityClassName: "high",
      priority: 1000,
      preemptionPolicy: "Never",
      annotations: {},
    });
    expect(toPodMeta({ spec: { priorityClassName: 1, priority: "1000", preemptionPolicy: 0 } } as unknown as WirePod)).to.deep.equal({
      namespace: "default",
      name: "",
      ownerKinds: [],
      annotations: {},
    });
  });

  it("reads spec.activeDeadlineSeconds (the prediction horizon of a short-lived pod) when it is a positive number, else leaves it out", () => {
    expect(toPodMeta({ spec: { activeDeadlineSeconds: 3600 } } as WirePod).activeDeadlineSeconds).to.equal(3600);
    for (const bad of [0, -5, "3600", null]) {
      expect(toPodMeta({ spec: { activeDeadlineSeconds: bad } } as unknown as WirePod)).to.not.have.property("activeDeadlineSeconds");
    }
  });
});

describe("toFilterResultWire edges", () => {
  it("in Nodes mode keeps the list's apiVersion and kind, and sends an empty Error", () => {
    const body = {
      Pod: {},
      Nodes: {
        apiVersion: "v1",
        kind: "NodeList",
        metadata: { resourceVersion: "7" },
        items: [{ metadata: { name: "w1" } }, { metadata: { name: "w2" } }],
      },
    };
    const wire = toFilterResultWire(parseExtenderArgs(body), { passed: ["w2"], failed: new Map(), unresolvable: new Map() } as never);
    expect(wire).to.deep.equal({
      Nodes: { apiVersion: "v1", kind: "NodeList", metadata: { resourceVersion: "7" }, items: [{ metadata: { name: "w2" } }] },
      NodeNames: null,
      FailedNodes: {},
      FailedAndUnresolvableNodes: {},
      Error: "",
    });
  });
});

describe("formatReason edges", () => {
  const host = { id: "host-21", name: "esx-07" };
  it("writes every reason kind", () => {
    const cases: Array<[Reason, string]> = [
      [{ code: "metrics_missing", host }, "ESXi host esx-07 (host-21): no host-level metrics sample (or none of its counters)"],
      [
        { code: "host_metric", host, metric: "cpu ready", value: 12.5, op: ">=", threshold: 10, unit: "%", ageS: 3 },
        "ESXi host esx-07 (host-21): cpu ready 12.5% >= 10% (sampled 3s ago)",
      ],
      [
        { code: "host_metric", host, metric: "memory state", value: "hard", op: "in", threshold: "hard|low", unit: "", ageS: 3 },
        "ESXi host esx-07 (host-21): memory state hard in hard|low (sampled 3s ago)",
      ],
      [{ code: "node_unmapped", node: "w1" }, "node w1: no vSphere VM matches its providerID, systemUUID or name"],
      [
        { code: "vm_host_unknown", vm: { id: "vm-1", name: "w1" }, hostId: "host-9" },
        "VM w1 (vm-1): its host host-9 is not in the polled inventory",
      ],
      [
        { code: "host_metric", host, metric: "swap-in rate", value: 40, op: ">=", threshold: 1, unit: "KB/s", ageS: 3 },
        "ESXi host esx-07 (host-21): swap-in rate 40 KB/s >= 1 KB/s (sampled 3s ago)",
      ],
      [
        {
          code: "vm_metric",
          host,
          vm: { id: "vm-1", name: "w1" },
          metric: "balloon",
          value: 4096,
          op: ">",
          threshold: 0,
          unit: "MiB",
          ageS: 3,
        },
        "ESXi host esx-07 (host-21): VM w1 (vm-1) balloon 4096 MiB > 0 MiB (sampled 3s ago)",
      ],
    ];
    for (const [reason, want] of cases) {
      expect(formatReason(reason)).to.equal(want);
      expect(formatReason(reason), "the memoised text").to.equal(want);
    }
  });

  it("joins several reasons with '; '", () => {
    const reasons: Reason[] = [
      { code: "metrics_missing", host },
      { code: "node_unmapped", node: "w1" },
    ];
    const want =
      "ESXi host esx-07 (host-21): no host-level metrics sample (or none of its counters); node w1: no vSphere VM matches its providerID, systemUUID or name";
    expect(formatReasons(reasons)).to.equal(want);
    expect(formatReasons(reasons), "the memoised text").to.equal(want);
  });

  it("refuses a reason it does not know", () => {
    expect(() => formatReason({ code: "nope" } as unknown as Reason)).to.throw('unhandled reason {"code":"nope"}');
  });
});

describe("desiredNodeMarks", () => {
  const worker = (name: string, vmId: string, biosUuid: string) => ({
    node: nodeView({ name, providerID: `vsphere://${biosUuid}` }),
    vm: (hostId: string, metrics: Record<string, number> = {}) => vmView({ id: vmId, name, hostId, biosUuid, metrics }),
  });
  const a = worker("w-hot", "vm-1", "42260001-0000-0000-0000-000000000001");
  const b = worker("w-warm", "vm-2", "42260002-0000-0000-0000-000000000002");
  const c = worker("w-cool", "vm-3", "42260003-0000-0000-0000-000000000003");
  const d = worker("w-stale", "vm-4", "42260004-0000-0000-0000-000000000004");
  const e = worker("w-stale-maint", "vm-5", "42260005-0000-0000-0000-000000000005");
  const unmapped = nodeView({ name: "w-unmapped", providerID: "vsphere://42269999-0000-0000-0000-000000000009" });
  const orphan = worker("w-orphan", "vm-6", "42260006-0000-0000-0000-000000000006");

  it("marks each judged node with its host and the host's heat and first reason; leaves unjudged nodes out", () => {
    const inventory = inventoryOf(
      [
        hostView({ id: "host-1", name: "esx-1", metrics: { cpuReadyPercent: 12 } }),
        hostView({ id: "host-2", name: "esx-2", metrics: { cpuReadyPercent: 6 } }),
        hostView({ id: "host-3", name: "esx-3" }),
        hostView({ id: "host-4", name: "esx-4", metrics: { sampledAtMs: NOW_MS - 600_000 } }),
        hostView({ id: "host-5", name: "esx-5", inMaintenance: true, metrics: { sampledAtMs: NOW_MS - 600_000 } }),
      ],
      [a.vm("host-1"), b.vm("host-2"), c.vm("host-3"), d.vm("host-4"), e.vm("host-5"), orphan.vm("host-404")],
    );
    const cluster = clusterViewOf([a.node, b.node, c.node, d.node, e.node, unmapped, orphan.node]);
    const marks = desiredNodeMarks(cluster, inventory, DEFAULT_POLICY, NOW_MS);
    const words = Object.fromEntries([...marks].map(([node, m]) => [node, `${m.hostLabel} ${m.heat.heat}`]));
    expect(words).to.deep.equal({ "w-hot": "esx-1 hot", "w-warm": "esx-2 warm", "w-cool": "esx-3 cool", "w-stale-maint": "esx-5 hot" });
  });
});
