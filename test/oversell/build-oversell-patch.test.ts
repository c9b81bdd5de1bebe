import { expect } from "chai";
import fjp from "fast-json-patch";
import { buildOversellPatch } from "../../src/oversell/build-oversell-patch.js";
import { decideOversell } from "../../src/oversell/decide-oversell.js";
import { fleetView } from "../../src/oversell/fleet-view.js";
import type { PodShape } from "../../src/oversell/pod-shape.js";
import { container, DEFAULT_POLICY, example, host, pod, roomyFleet } from "./fixtures.js";

type Review = { request: { namespace: string; object: PodShape } };

function scaled(p: PodShape) {
  const d = decideOversell({ pod: p, namespace: "team", policy: DEFAULT_POLICY, ownNamespace: "hvx-system", fleet: roomyFleet() });
  if (d.kind !== "scale") throw new Error(`expected a scale decision, got ${JSON.stringify(d)}`);
  return d;
}

describe("buildOversellPatch", () => {
  it("given the reference pod CREATE (fleet vCPU:pCPU 1.6), returns the reference patch.json exactly", () => {
    const review = example<Review>("admissionreview-request-pod-create.json");
    const fleet = fleetView([host({ id: "host-1", vcpuPerPcpu: 1.6, vramPerPram: 1.2 })], () => false);
    const d = decideOversell({
      pod: review.request.object,
      namespace: review.request.namespace,
      policy: DEFAULT_POLICY,
      ownNamespace: "hvx-system",
      fleet,
    });
    if (d.kind !== "scale") throw new Error("expected scale");
    expect(buildOversellPatch(review.request.object, d)).to.deep.equal(example("patch.json"));
    expect(d.warnings).to.deep.equal([
      "hvx: cpu requests scaled by 1/2 (configured ratio; stacked cap 4.0 / vCPU:pCPU 1.6 = 2.5 not binding)",
    ]);
  });

  it("given a pod without annotations, creates /metadata/annotations whole", () => {
    const p = pod([container("app", { cpu: "1" })]);
    const ops = buildOversellPatch(p, scaled(p));
    expect(ops.at(-1)).to.deep.equal({
      op: "add",
      path: "/metadata/annotations",
      value: {
        "hvx.io/original-requests": '{"containers":{"app":{"cpu":"1"}}}',
        "hvx.io/oversell": "cpu=2,memory=1 (configured; stacked cap not binding)",
      },
    });
    const out = fjp.applyPatch(structuredClone(p), ops as fjp.Operation[], true, false).newDocument as PodShape;
    expect(out.spec?.containers?.[0]?.resources?.requests?.cpu).to.equal("500m");
  });

  it("given a pod without metadata, creates /metadata", () => {
    const p: PodShape = { spec: { containers: [container("app", { cpu: "1" })] } };
    const ops = buildOversellPatch(p, scaled(p));
    expect(ops.at(-1)?.path).to.equal("/metadata");
    expect(() => fjp.applyPatch(structuredClone(p), ops as fjp.Operation[], true, false)).not.to.throw();
  });

  it("given existing annotations, adds each key with / escaped as ~1 and keeps the others", () => {
    const p = pod([container("app", { memory: "1Gi" })], [], { "a~b/c": "x" });
    const d = decideOversell({
      pod: p,
      namespace: "team",
      policy: { ...DEFAULT_POLICY, memoryRatio: 2 },
      ownNamespace: "hvx-system",
      fleet: roomyFleet(),
    });
    if (d.kind !== "scale") throw new Error("expected scale");
    const ops = buildOversellPatch(p, d);
    expect(ops.map((o) => o.path)).to.deep.equal([
      "/spec/containers/0/resources/requests/memory",
      "/metadata/annotations/hvx.io~1original-requests",
      "/metadata/annotations/hvx.io~1oversell",
    ]);
    const out = fjp.applyPatch(structuredClone(p), ops as fjp.Operation[], true, false).newDocument as PodShape;
    expect(out.metadata?.annotations?.["a~b/c"]).to.equal("x");
    expect(out.spec?.containers?.[0]?.resources?.requests?.memory).to.equal("512Mi");
  });

  it("given an init container change, replaces under /spec/initContainers/<index>", () => {
    const p = pod([container("app")], [container("a"), container("b", { cpu: "200m" })]);
    const ops = buildOversellPatch(p, scaled(p));
    expect(ops[0]).to.deep.equal({ op: "replace", path: "/spec/initContainers/1/resources/requests/cpu", value: "100m" });
  });
});
