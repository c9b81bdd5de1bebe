import { expect } from "chai";
import { podShapeProblem } from "../../src/oversell/pod-shape.js";

describe("podShapeProblem", () => {
  const cases: Array<{ name: string; object: unknown; want: RegExp | undefined }> = [
    { name: "a normal pod", object: { metadata: {}, spec: { containers: [{ name: "a", resources: {} }] } }, want: undefined },
    {
      name: "null annotations and resources",
      object: { metadata: { annotations: null }, spec: { containers: [{ name: "a", resources: null }], initContainers: null } },
      want: undefined,
    },
    { name: "an array", object: [], want: /not a JSON object/ },
    { name: "no spec", object: { metadata: {} }, want: /spec/ },
    { name: "containers not an array", object: { spec: { containers: {} } }, want: /spec\.containers is not an array/ },
    { name: "container without name", object: { spec: { containers: [{}] } }, want: /spec\.containers\[0\] has no name/ },
    {
      name: "numeric request",
      object: { spec: { containers: [{ name: "a", resources: { requests: { cpu: 1 } } }] } },
      want: /requests is not a map of strings/,
    },
    { name: "numeric annotation", object: { metadata: { annotations: { a: 1 } }, spec: {} }, want: /annotations/ },
  ];
  for (const c of cases) {
    it(`given ${c.name}, returns ${c.want ?? "undefined"}`, () => {
      const got = podShapeProblem(c.object);
      if (c.want === undefined) expect(got).to.equal(undefined);
      else expect(got).to.match(c.want);
    });
  }
});
