import { expect } from "chai";
import { readFileSync } from "node:fs";
import { parseAdmissionReview, parseAdmissionReviewText, toAdmissionResponseWire } from "../../src/protocol/admission-review.js";

const EXAMPLES = new URL("../../../test/oversell/examples/", import.meta.url);
const requestText = readFileSync(new URL("admissionreview-request-pod-create.json", EXAMPLES), "utf8");
const request = (): Record<string, unknown> & { request: Record<string, unknown> } => JSON.parse(requestText);

describe("parseAdmissionReview", () => {
  it("given the reference pod CREATE review, accepts it", () => {
    const r = parseAdmissionReviewText(requestText);
    expect(r.ok).to.equal(true);
    if (r.ok)
      expect([r.review.request.uid, r.review.request.operation, r.review.request.namespace]).to.deep.equal([
        "9b2f4c1e-6a3d-4f0b-8e2a-1c7d5e9f3a41",
        "CREATE",
        "payments",
      ]);
  });

  const broken: Array<{ name: string; edit: (b: ReturnType<typeof request>) => unknown; want: RegExp }> = [
    { name: "an array", edit: () => [], want: /not a JSON object/ },
    { name: "v1beta1", edit: (b) => ({ ...b, apiVersion: "admission.k8s.io/v1beta1" }), want: /apiVersion must be "admission.k8s.io\/v1"/ },
    { name: "wrong kind", edit: (b) => ({ ...b, kind: "Review" }), want: /kind must be "AdmissionReview"/ },
    {
      name: "lower-case key (keys are case-sensitive)",
      edit: (b) => ({ apiVersion: b.apiVersion, kind: b.kind, Request: b.request }),
      want: /request is missing/,
    },
    { name: "no uid", edit: (b) => ({ ...b, request: { ...b.request, uid: "" } }), want: /request\.uid/ },
    {
      name: "bad operation",
      edit: (b) => ({ ...b, request: { ...b.request, operation: "PATCH" } }),
      want: /request\.operation must be one of/,
    },
    {
      name: "kind without version",
      edit: (b) => ({ ...b, request: { ...b.request, kind: { group: "", kind: "Pod" } } }),
      want: /request\.kind/,
    },
    { name: "object is a string", edit: (b) => ({ ...b, request: { ...b.request, object: "pod" } }), want: /request\.object/ },
    { name: "dryRun is a string", edit: (b) => ({ ...b, request: { ...b.request, dryRun: "true" } }), want: /request\.dryRun/ },
  ];
  for (const c of broken) {
    it(`given ${c.name}, returns a clear message`, () => {
      const r = parseAdmissionReview(c.edit(request()));
      expect(r.ok).to.equal(false);
      if (!r.ok) expect(r.message).to.match(c.want);
    });
  }
  it("given text that is not JSON, says so", () => {
    const r = parseAdmissionReviewText("{nope");
    expect(r.ok ? "" : r.message).to.match(/not valid JSON/);
  });
});

describe("toAdmissionResponseWire", () => {
  const review = { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request: { uid: "u-1" } };
  it("given no patch and no warnings, returns the reference allow reply", () => {
    expect(toAdmissionResponseWire(review, {})).to.deep.equal({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid: "u-1", allowed: true },
    });
  });
  it("given a patch, sets patchType JSONPatch and base64 of the JSON array", () => {
    const patch = [{ op: "add", path: "/a", value: 1 }];
    const out = toAdmissionResponseWire(review, { patch, warnings: ["w"] });
    expect(out.response?.patchType).to.equal("JSONPatch");
    expect(JSON.parse(Buffer.from(out.response?.patch ?? "", "base64").toString("utf8"))).to.deep.equal(patch);
    expect(out.response?.warnings).to.deep.equal(["w"]);
  });
  it("given an empty patch, leaves patch and patchType out", () => {
    expect(toAdmissionResponseWire(review, { patch: [] }).response).to.deep.equal({ uid: "u-1", allowed: true });
  });
});
