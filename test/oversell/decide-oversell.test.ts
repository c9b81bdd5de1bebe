import { expect } from "chai";
import { decideOversell, type OversellDecision } from "../../src/oversell/decide-oversell.js";
import { fleetView } from "../../src/oversell/fleet-view.js";
import type { OversellPolicy } from "../../src/oversell/oversell-policy.js";
import type { PodShape } from "../../src/oversell/pod-shape.js";
import { container, host, pod, policy, roomyFleet } from "./fixtures.js";

type Case = {
  name: string;
  pod: PodShape;
  namespace?: string;
  policy?: OversellPolicy;
  labels?: Record<string, string>;
  fleetRatio?: number;
  /** No host data since start (no fleet at all). Default: a fleet whose caps do not bind. */
  noHostData?: true;
  /** Expected skip code, or the expected changes as `list/index/resource: from -> to`. */
  want: string | string[];
};

const burstable = [container("app", { cpu: "1", memory: "1Gi" }, { cpu: "2", memory: "2Gi" })];
const guaranteed = [container("app", { cpu: "1", memory: "1Gi" }, { cpu: "1", memory: "1Gi" })];

const cases: Case[] = [
  { name: "excluded namespace (config)", pod: pod(burstable), namespace: "kube-system", want: "excluded_namespace" },
  { name: "hvx's own namespace", pod: pod(burstable), namespace: "hvx-system", want: "excluded_namespace" },
  { name: "opted out by annotation", pod: pod(burstable, [], { "hvx.io/oversell": "false" }), want: "opted_out" },
  {
    name: "already carries original-requests (reinvocation)",
    pod: pod(burstable, [], { "hvx.io/original-requests": "{}" }),
    want: "already_scaled",
  },
  { name: "BestEffort pod", pod: pod([container("app")]), want: "best_effort" },
  { name: "Guaranteed pod with preserveGuaranteed", pod: pod(guaranteed), want: "guaranteed" },
  // 1 / 2 = 500m; memory ratio 1 leaves 1Gi
  {
    name: "Guaranteed pod without preserveGuaranteed is scaled",
    pod: pod(guaranteed),
    policy: policy({ preserveGuaranteed: false }),
    want: ["containers/0/cpu: 1 -> 500m"],
  },
  {
    name: "duplicate container names",
    pod: pod([container("a", { cpu: "1" }), container("a", { cpu: "1" })]),
    want: "duplicate_container_name",
  },
  // 1000m / 2 = 500m; 1Gi / 1.5 = 682.67Mi -> 682Mi (0.098 % below)
  {
    name: "burstable pod, cpu 2 and memory 1.5",
    pod: pod(burstable),
    policy: policy({ memoryRatio: 1.5, maxStackedMemoryOvercommit: 4 }),
    want: ["containers/0/cpu: 1 -> 500m", "containers/0/memory: 1Gi -> 682Mi"],
  },
  // 15m / 2 = 7.5m -> floor 10m; 8m is below the floor already: unchanged
  {
    name: "floors at minCpu, never above the original",
    pod: pod([container("a", { cpu: "15m" }), container("b", { cpu: "8m" })]),
    want: ["containers/0/cpu: 15m -> 10m"],
  },
  // 20Mi / 2 = 10Mi -> floor 16Mi
  {
    name: "floors at minMemory",
    pod: pod([container("a", { memory: "20Mi" })]),
    policy: policy({ memoryRatio: 2 }),
    want: ["containers/0/memory: 20Mi -> 16Mi"],
  },
  // sidecar and regular init containers both scaled; a limit-only container gets no request
  {
    name: "init containers incl. sidecars, no request added",
    pod: pod(
      [container("app", undefined, { cpu: "1" })],
      [container("init", { cpu: "500m" }), container("side", { cpu: "50m" }, undefined, { restartPolicy: "Always" })],
    ),
    want: ["initContainers/0/cpu: 500m -> 250m", "initContainers/1/cpu: 50m -> 25m"],
  },
  // stacked cap 4.0 / 2.5 = 1.6: 1000m / 1.6 = 625m
  { name: "stacked cap binds", pod: pod(burstable), fleetRatio: 2.5, want: ["containers/0/cpu: 1 -> 625m"] },
  // cap 4.0 / 5.0 = 0.8 -> ratio 1.0: nothing to lower
  { name: "stacked cap below 1 leaves the pod alone", pod: pod(burstable), fleetRatio: 5, want: "nothing_to_lower" },
  // namespace config beats the label: cpu 4 -> 250m
  {
    name: "namespace config wins over the namespace label",
    pod: pod(burstable),
    namespace: "team",
    policy: policy({ namespaces: { team: { cpuRatio: 4 } } }),
    labels: { "hvx.io/oversell-cpu": "1.25" },
    want: ["containers/0/cpu: 1 -> 250m"],
  },
  // label 100, memoryRatio 1.0: capped at 1.0, 8Gi stays 8Gi (before: 8Gi / 15, the roomy fleet's cap 1.5 / 0.1)
  {
    name: "a memory label above memoryRatio",
    pod: pod([container("app", { cpu: "1", memory: "8Gi" }, { memory: "16Gi" })]),
    labels: { "hvx.io/oversell-memory": "100" },
    want: ["containers/0/cpu: 1 -> 500m"],
  },
  // 201 containers > maxContainers 200: left alone before any quantity is read
  {
    name: "more containers than maxContainers",
    pod: pod(Array.from({ length: 201 }, (_, i) => container(`c${i}`, { cpu: "1" }))),
    want: "too_many_containers",
  },
  // label 1.25: 1000m / 1.25 = 800m
  {
    name: "namespace label applies",
    pod: pod(burstable),
    labels: { "hvx.io/oversell-cpu": "1.25" },
    want: ["containers/0/cpu: 1 -> 800m"],
  },
  // before any host data since start: no cap to keep, so no oversell at all
  { name: "no host data since start", pod: pod(burstable), noHostData: true, want: "nothing_to_lower" },
  {
    name: "decimal memory stays decimal",
    pod: pod([container("a", { memory: "1G" })]),
    policy: policy({ memoryRatio: 3, maxStackedMemoryOvercommit: 9 }),
    want: ["containers/0/memory: 1G -> 333M"],
  },
];

function summary(d: OversellDecision): string | string[] {
  if (d.kind === "skip") return d.reason.code;
  return d.changes.map((c) => `${c.list}/${c.index}/${c.resource}: ${c.from} -> ${c.to}`);
}

describe("decideOversell", () => {
  for (const c of cases) {
    it(`given ${c.name}, returns ${JSON.stringify(c.want)}`, () => {
      const fleet = c.noHostData
        ? undefined
        : c.fleetRatio === undefined
          ? roomyFleet()
          : fleetView([host({ id: "h", vcpuPerPcpu: c.fleetRatio })], () => false);
      const d = decideOversell({
        pod: c.pod,
        namespace: c.namespace ?? "team",
        policy: c.policy ?? policy(),
        ownNamespace: "hvx-system",
        namespaceLabels: c.labels,
        fleet,
      });
      expect(summary(d)).to.deep.equal(c.want);
    });
  }

  it("given the stacked cap binds, says why in a warning", () => {
    const fleet = fleetView([host({ id: "h", vcpuPerPcpu: 2.5 })], () => false);
    const d = decideOversell({ pod: pod(burstable), namespace: "team", policy: policy(), ownNamespace: "hvx-system", fleet });
    expect(d.warnings).to.deep.equal(["hvx: cpu requests scaled by 1/1.6 (stacked cap 4.0 / vCPU:pCPU 2.5)"]);
  });

  it("given more than 25 % of hosts hot, CPU is not scaled and the warning says so", () => {
    const hosts = [host({ id: "a" }), host({ id: "b" }), host({ id: "c" })];
    const fleet = fleetView(hosts, (h) => h.id === "a"); // 1/3 = 33 % > 25 %
    const d = decideOversell({ pod: pod(burstable), namespace: "team", policy: policy(), ownNamespace: "hvx-system", fleet });
    expect(d.kind).to.equal("skip");
    expect(d.warnings).to.deep.equal(["hvx: cpu requests not scaled (hot-host brake: 33% of hosts hot > 25%)"]);
  });

  it("given no host data since start, scales nothing and says why (no cap to keep, so no oversell)", () => {
    const d = decideOversell({ pod: pod(burstable), namespace: "team", policy: policy({ memoryRatio: 1.5 }), ownNamespace: "hvx-system" });
    expect(d.kind).to.equal("skip");
    expect(d.warnings).to.deep.equal([
      "hvx: cpu requests not scaled (no vCenter host data since hvx started, so no oversell)",
      "hvx: memory requests not scaled (no vCenter host data since hvx started, so no oversell)",
    ]);
  });

  it("given the last known fleet (current data stale), keeps its cap and says it is the last known", () => {
    const fleet = { ...fleetView([host({ id: "h", vcpuPerPcpu: 2.5 })], () => false), lastKnown: true };
    const d = decideOversell({ pod: pod(burstable), namespace: "team", policy: policy(), ownNamespace: "hvx-system", fleet });
    expect(summary(d)).to.deep.equal(["containers/0/cpu: 1 -> 625m"]);
    expect(d.warnings).to.deep.equal(["hvx: cpu requests scaled by 1/1.6 (stacked cap 4.0 / vCPU:pCPU 2.5, last known host data)"]);
  });

  it("given a bad namespace label, ignores it with a warning and uses the configured ratio", () => {
    const d = decideOversell({
      pod: pod(burstable),
      namespace: "team",
      policy: policy(),
      ownNamespace: "hvx-system",
      namespaceLabels: { "hvx.io/oversell-cpu": "lots" },
      fleet: roomyFleet(),
    });
    expect(summary(d)).to.deep.equal(["containers/0/cpu: 1 -> 500m"]);
    expect(d.warnings[0]).to.match(/hvx\.io\/oversell-cpu="lots" ignored/);
  });

  it("given a scale, sums what was removed (cpu millicores, memory bytes)", () => {
    const p = pod([container("a", { cpu: "1", memory: "1Gi" }), container("b", { cpu: "300m" })]);
    const d = decideOversell({
      pod: p,
      namespace: "team",
      policy: policy({ memoryRatio: 1.5, maxStackedMemoryOvercommit: 9 }),
      ownNamespace: "x",
      fleet: roomyFleet(),
    });
    if (d.kind !== "scale") throw new Error("expected scale");
    expect(d.removedCpuMilli).to.equal(500n + 150n);
    expect(d.removedMemoryBytes).to.equal(BigInt(1024 - 682) * 1024n * 1024n);
  });

  it("given more containers than admission.maxContainers, admits the pod unchanged with a warning that says why", () => {
    const many = pod(Array.from({ length: 20_000 }, (_, i) => container(`c${i}`, { cpu: "0.1" })));
    const d = decideOversell({ pod: many, namespace: "team", policy: policy(), ownNamespace: "hvx-system", fleet: roomyFleet() });
    expect(d).to.deep.include({ kind: "skip", reason: { code: "too_many_containers", containers: 20_000, max: 200 } });
    expect(d.warnings).to.deep.equal(["hvx: oversell skipped: 20000 containers > admission.maxContainers 200"]);
  });
});
