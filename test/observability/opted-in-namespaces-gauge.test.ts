import { expect } from "chai";
import { Registry } from "prom-client";
import { countOptedInNamespaces, registerOptedInNamespacesGauge } from "../../src/observability/opted-in-namespaces-gauge.js";

describe("countOptedInNamespaces", () => {
  const cases: Array<{ name: string; namespaces?: Map<string, Record<string, string>>; want: number | undefined }> = [
    { name: "given no synced cache, returns undefined (no opinion)", want: undefined },
    {
      name: "given two namespaces labelled hvx.io/oversell=enabled among others, returns 2",
      namespaces: new Map([
        ["a", { "hvx.io/oversell": "enabled" }],
        ["b", { "hvx.io/oversell": "enabled", team: "x" }],
        ["c", { "hvx.io/oversell": "disabled" }],
        ["d", {}],
      ]),
      want: 2,
    },
    { name: "given none opted in, returns 0", namespaces: new Map([["d", {}]]), want: 0 },
  ];
  for (const c of cases) it(c.name, () => expect(countOptedInNamespaces(c.namespaces)).to.equal(c.want));
});

describe("hvx_admission_opted_in_namespaces", () => {
  it("given a count, exports it at scrape time; given none (cache not synced), NaN: unknown, not 0", async () => {
    const registry = new Registry();
    let count: number | undefined = 3;
    registerOptedInNamespacesGauge(registry, () => count);
    expect(await registry.metrics()).to.match(/^hvx_admission_opted_in_namespaces 3$/m);
    count = undefined;
    expect(await registry.metrics()).to.match(/^hvx_admission_opted_in_namespaces nan$/im);
  });
});
