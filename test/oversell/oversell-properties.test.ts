import { expect } from "chai";
import fc from "fast-check";
import fjp from "fast-json-patch";
import { buildOversellPatch } from "../../src/oversell/build-oversell-patch.js";
import { decideOversell } from "../../src/oversell/decide-oversell.js";
import { fleetView } from "../../src/oversell/fleet-view.js";
import { parseOriginalRequests } from "../../src/oversell/original-requests.js";
import type { OversellPolicy } from "../../src/oversell/oversell-policy.js";
import type { ContainerShape, PodShape } from "../../src/oversell/pod-shape.js";
import { qosClass } from "../../src/oversell/qos-class.js";
import { formatCpuMilli } from "../../src/quantity/cpu-milli.js";
import { formatQuantity } from "../../src/quantity/format-quantity.js";
import { parseQuantity } from "../../src/quantity/parse-quantity.js";
import { compareQuantity, type Quantity } from "../../src/quantity/quantity.js";
import { host, policy } from "./fixtures.js";

// Property tests over generated pods: the patch is checked with fast-json-patch, an
// independent RFC 6902 implementation, in validating mode.

const cpuText = fc.oneof(
  fc.integer({ min: 1, max: 8000 }).map((n) => `${n}m`),
  fc.integer({ min: 1, max: 8 }).map(String),
  fc.integer({ min: 1, max: 9 }).map((d) => `0.${d}`),
  fc.integer({ min: 1, max: 9 }).map((d) => `.${d}5`),
  fc.integer({ min: 1, max: 40 }).map((n) => `${n}00e-3`),
  fc.integer({ min: 1, max: 4 }).map((n) => `${n}.`),
);
const memoryText = fc.oneof(
  fc.integer({ min: 1, max: 8192 }).map((n) => `${n}Mi`),
  fc.integer({ min: 1, max: 16 }).map((n) => `${n}Gi`),
  fc.integer({ min: 1, max: 9 }).map((n) => `${n}.5Gi`),
  fc.integer({ min: 1, max: 9000 }).map((n) => `${n}M`),
  fc.integer({ min: 1, max: 16 }).map((n) => `${n}G`),
  fc.integer({ min: 1, max: 999 }).map((n) => `${n}e6`),
  fc.integer({ min: 1, max: 2 ** 33 }).map(String),
  fc.integer({ min: 1, max: 2 ** 22 }).map((n) => `${n}Ki`),
);

/** A request and a limit that is absent, equal (same or another spelling) or larger. */
function pair(text: fc.Arbitrary<string>, bigger: (q: Quantity, text: string, k: number) => string) {
  return fc
    .record({
      request: fc.option(text, { nil: undefined }),
      limit: fc.constantFrom("none", "same", "bigger"),
      k: fc.integer({ min: 1, max: 3000 }),
    })
    .map(({ request, limit, k }) => {
      if (request === undefined) return { request: undefined, limit: undefined };
      if (limit === "none") return { request, limit: undefined };
      return { request, limit: limit === "same" ? request : bigger(parseQuantity(request), request, k) };
    });
}
const cpuPair = pair(cpuText, (q, _t, k) => formatCpuMilli(Number((q.num * 1000n + q.den - 1n) / q.den) + k));
const memoryPair = pair(memoryText, (q, _t, k) => String((q.num + q.den - 1n) / q.den + BigInt(k)));

type Unnamed = Omit<ContainerShape, "name">;
const containerArb: fc.Arbitrary<Unnamed> = fc
  .record({ cpu: cpuPair, memory: memoryPair, sidecar: fc.boolean(), emptyResources: fc.boolean() })
  .map(({ cpu, memory, sidecar, emptyResources }): Unnamed => {
    const requests: Record<string, string> = {};
    const limits: Record<string, string> = {};
    if (cpu.request !== undefined) requests.cpu = cpu.request;
    if (cpu.limit !== undefined) limits.cpu = cpu.limit;
    if (memory.request !== undefined) requests.memory = memory.request;
    if (memory.limit !== undefined) limits.memory = memory.limit;
    const resources = {
      ...(Object.keys(requests).length > 0 ? { requests } : {}),
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
    };
    return {
      ...(sidecar ? { restartPolicy: "Always" } : {}),
      ...(emptyResources && Object.keys(resources).length === 0 ? {} : { resources }),
    };
  });

const annotationsArb = fc.oneof(fc.constant(undefined), fc.constant({}), fc.constant({ "a/b~c": "v", "hvx.io/other": "x" }));

function podOf(containers: readonly Unnamed[], init: readonly Unnamed[], annotations: Record<string, string> | undefined): PodShape {
  return {
    metadata: { generateName: "p-", ...(annotations ? { annotations } : {}) },
    spec: {
      containers: containers.map((c, i) => ({ name: `app-${i}`, ...c })),
      ...(init.length > 0 ? { initContainers: init.map((c, i) => ({ name: `init/${i}~x`, ...c })) } : {}),
    },
  };
}

const podArb = fc
  .tuple(fc.array(containerArb, { minLength: 1, maxLength: 4 }), fc.array(containerArb, { maxLength: 3 }), annotationsArb)
  .map(([containers, init, annotations]) => podOf(containers, init, annotations));

/** Every container limits cpu and memory, with requests equal (maybe spelled differently). */
const guaranteedContainerArb: fc.Arbitrary<Unnamed> = fc
  .record({ cpu: cpuText, memory: memoryText, respellCpu: fc.boolean(), omitRequest: fc.boolean() })
  .map(({ cpu, memory, respellCpu, omitRequest }) => ({
    resources: {
      ...(omitRequest ? {} : { requests: { cpu, memory } }),
      limits: { cpu: respellCpu ? formatQuantity(parseQuantity(cpu)) : cpu, memory },
    },
  }));
const guaranteedPodArb = fc
  .tuple(
    fc.array(guaranteedContainerArb, { minLength: 1, maxLength: 4 }),
    fc.array(guaranteedContainerArb, { maxLength: 2 }),
    annotationsArb,
  )
  .map(([containers, init, annotations]) => podOf(containers, init, annotations));

const policyArb = fc
  .record({
    cpuRatio: fc.constantFrom(1, 1.25, 1.5, 2, 3, 4),
    memoryRatio: fc.constantFrom(1, 1.1, 1.5, 2, 3),
    preserveGuaranteed: fc.boolean(),
    fleet: fc.option(fc.record({ v: fc.constantFrom(0.8, 1.6, 2.5, 3.3, 5), m: fc.constantFrom(0.9, 1.2, 1.4, 2) }), { nil: undefined }),
  })
  .map(({ cpuRatio, memoryRatio, preserveGuaranteed, fleet }) => ({
    policy: policy({ cpuRatio, memoryRatio, preserveGuaranteed }) as OversellPolicy,
    fleet: fleet && fleetView([host({ id: "h", vcpuPerPcpu: fleet.v, vramPerPram: fleet.m })], () => false),
  }));

function lists(p: PodShape): Array<["containers" | "initContainers", readonly ContainerShape[]]> {
  return [
    ["containers", p.spec?.containers ?? []],
    ["initContainers", p.spec?.initContainers ?? []],
  ];
}

function applied(p: PodShape, ops: unknown[]): PodShape {
  expect(fjp.validate(ops as fjp.Operation[], structuredClone(p))).to.equal(undefined);
  return fjp.applyPatch(structuredClone(p), ops as fjp.Operation[], true, false).newDocument as PodShape;
}

/**
 * Counts how many generated cases were scaled: a property that returns early on `skip`
 * would pass vacuously if nothing were ever scaled, so each such test also asserts that
 * a meaningful share of its cases did lower a request.
 */
class ScaledShare {
  cases = 0;
  scaled = 0;
  count(kind: "skip" | "scale"): void {
    this.cases++;
    if (kind === "scale") this.scaled++;
  }
  expectAtLeast(share: number): void {
    expect(this.cases, "cases run").to.be.greaterThan(0);
    expect(this.scaled / this.cases, `${this.scaled} of ${this.cases} generated cases scaled`).to.be.at.least(share);
  }
}

describe("oversell properties (fast-check, fast-json-patch)", () => {
  it("the patch applies cleanly; requests stay <= limits and <= originals; limits and other fields untouched; no request added", () => {
    const share = new ScaledShare();
    fc.assert(
      fc.property(podArb, policyArb, (p, { policy: pol, fleet }) => {
        const d = decideOversell({ pod: p, namespace: "team", policy: pol, ownNamespace: "hvx-system", fleet });
        share.count(d.kind);
        if (d.kind === "skip") return;
        expect(d.changes.length, "a scale decision lowers at least one request").to.be.greaterThan(0);
        const out = applied(p, buildOversellPatch(p, d));
        let lowered = 0;
        for (const [list, before] of lists(p)) {
          const after = out.spec?.[list] ?? [];
          expect(after.length).to.equal(before.length);
          before.forEach((b, i) => {
            const a = after[i] as ContainerShape;
            expect(a.name).to.equal(b.name);
            expect(a.resources?.limits).to.deep.equal(b.resources?.limits);
            expect(Object.keys(a.resources?.requests ?? {})).to.deep.equal(Object.keys(b.resources?.requests ?? {}));
            for (const r of ["cpu", "memory"] as const) {
              const was = b.resources?.requests?.[r];
              const now = a.resources?.requests?.[r];
              if (was === undefined || now === undefined) continue;
              const cmp = compareQuantity(parseQuantity(now), parseQuantity(was));
              expect(cmp, `${r} ${was} -> ${now}`).to.be.at.most(0);
              if (cmp < 0) lowered++;
              const lim = b.resources?.limits?.[r];
              if (lim !== undefined) expect(compareQuantity(parseQuantity(now), parseQuantity(lim))).to.be.at.most(0);
            }
          });
        }
        expect(lowered, "the applied patch lowers as many requests as the decision lists").to.equal(d.changes.length);
      }),
      { numRuns: 400 },
    );
    share.expectAtLeast(0.5);
  });

  it("without host data since start, no pod is ever scaled (no cap to keep, so no oversell)", () => {
    fc.assert(
      fc.property(podArb, policyArb, (p, { policy: pol }) => {
        expect(decideOversell({ pod: p, namespace: "team", policy: pol, ownNamespace: "hvx-system" }).kind).to.equal("skip");
      }),
      { numRuns: 200 },
    );
  });

  it("Guaranteed pods are unchanged when preserveGuaranteed is on", () => {
    fc.assert(
      fc.property(guaranteedPodArb, policyArb, (p, { policy: pol, fleet }) => {
        expect(qosClass(p)).to.equal("Guaranteed");
        const d = decideOversell({
          pod: p,
          namespace: "team",
          policy: { ...pol, preserveGuaranteed: true },
          ownNamespace: "hvx-system",
          fleet,
        });
        expect(d.kind).to.equal("skip");
      }),
      { numRuns: 200 },
    );
  });

  it("a second review of the patched pod yields no patch, and the annotation restores the originals exactly", () => {
    const share = new ScaledShare();
    fc.assert(
      fc.property(podArb, policyArb, (p, { policy: pol, fleet }) => {
        const d = decideOversell({ pod: p, namespace: "team", policy: pol, ownNamespace: "hvx-system", fleet });
        share.count(d.kind);
        if (d.kind === "skip") return;
        const out = applied(p, buildOversellPatch(p, d));
        const again = decideOversell({ pod: out, namespace: "team", policy: pol, ownNamespace: "hvx-system", fleet });
        expect(again.kind).to.equal("skip");
        const originals = parseOriginalRequests(out.metadata?.annotations?.["hvx.io/original-requests"] ?? "");
        expect(originals).to.not.equal(undefined);
        const restored = structuredClone(out) as { spec: { containers: ContainerShape[]; initContainers?: ContainerShape[] } };
        for (const [list, byName] of Object.entries(originals ?? {})) {
          for (const c of restored.spec[list as "containers"] ?? []) {
            const o = byName[c.name];
            if (o) Object.assign((c.resources as { requests: Record<string, string> }).requests, o);
          }
        }
        expect(restored.spec).to.deep.equal(p.spec);
        const keptAnnotations = { ...(out.metadata?.annotations ?? {}) };
        delete keptAnnotations["hvx.io/original-requests"];
        delete keptAnnotations["hvx.io/oversell"];
        expect(keptAnnotations).to.deep.equal(p.metadata?.annotations ?? {});
      }),
      { numRuns: 400 },
    );
    share.expectAtLeast(0.5);
  });
});
