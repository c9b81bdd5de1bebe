import { expect } from "chai";
import { applyJsonPatch, mergePatch, PatchError } from "../../../mocks/kube-apiserver/apply-patch.js";

describe("mergePatch (RFC 7386)", () => {
  const cases: Array<{ name: string; target: unknown; patch: unknown; want: unknown }> = [
    { name: "given a nested member, replaces only it", target: { a: { b: 1, c: 2 } }, patch: { a: { b: 3 } }, want: { a: { b: 3, c: 2 } } },
    { name: "given null, removes the member", target: { a: 1, b: 2 }, patch: { a: null }, want: { b: 2 } },
    { name: "given an array, replaces it whole", target: { a: [1, 2] }, patch: { a: [3] }, want: { a: [3] } },
    { name: "given a missing parent, creates it", target: {}, patch: { m: { l: { k: "v" } } }, want: { m: { l: { k: "v" } } } },
  ];
  for (const t of cases) it(t.name, () => expect(mergePatch(t.target, t.patch)).to.deep.equal(t.want));
});

describe("applyJsonPatch (RFC 6902)", () => {
  const doc = { metadata: { labels: { a: "1" } }, list: [1, 2] };
  const cases: Array<{ name: string; ops: unknown[]; want: unknown }> = [
    {
      name: "given add with an escaped key, adds it",
      ops: [{ op: "add", path: "/metadata/labels/hvx.io~1x", value: "y" }],
      want: { metadata: { labels: { a: "1", "hvx.io/x": "y" } }, list: [1, 2] },
    },
    {
      name: "given replace, replaces",
      ops: [{ op: "replace", path: "/metadata/labels/a", value: "2" }],
      want: { metadata: { labels: { a: "2" } }, list: [1, 2] },
    },
    {
      name: "given remove, removes",
      ops: [{ op: "remove", path: "/metadata/labels/a" }],
      want: { metadata: { labels: {} }, list: [1, 2] },
    },
    {
      name: "given add at -, appends",
      ops: [{ op: "add", path: "/list/-", value: 3 }],
      want: { metadata: { labels: { a: "1" } }, list: [1, 2, 3] },
    },
    {
      name: "given move, moves",
      ops: [{ op: "move", from: "/metadata/labels/a", path: "/b" }],
      want: { metadata: { labels: {} }, list: [1, 2], b: "1" },
    },
    {
      name: "given a passing test, applies the rest",
      ops: [
        { op: "test", path: "/list/0", value: 1 },
        { op: "remove", path: "/list/0" },
      ],
      want: { metadata: { labels: { a: "1" } }, list: [2] },
    },
  ];
  for (const t of cases) it(t.name, () => expect(applyJsonPatch(doc, t.ops)).to.deep.equal(t.want));

  const failing: Array<{ name: string; ops: unknown }> = [
    { name: "given replace of a missing path", ops: [{ op: "replace", path: "/metadata/annotations", value: {} }] },
    { name: "given add under a missing parent", ops: [{ op: "add", path: "/x/y", value: 1 }] },
    { name: "given a failing test", ops: [{ op: "test", path: "/list/0", value: 9 }] },
    { name: "given an unknown op", ops: [{ op: "frobnicate", path: "/a" }] },
    { name: "given a non-array", ops: { op: "add" } },
  ];
  for (const t of failing)
    it(`${t.name}, throws PatchError and leaves the input alone`, () => {
      expect(() => applyJsonPatch(doc, t.ops)).to.throw(PatchError);
      expect(doc).to.deep.equal({ metadata: { labels: { a: "1" } }, list: [1, 2] });
    });
});
