import { expect } from "chai";
import { collectOriginalRequests, parseOriginalRequests } from "../../src/oversell/original-requests.js";
import { container, pod } from "./fixtures.js";

describe("collectOriginalRequests", () => {
  it("given containers and init containers, keeps texts verbatim and leaves out containers without requests", () => {
    const p = pod(
      [container("app", { cpu: "2", memory: "4Gi" }), container("bare")],
      [container("migrate", { cpu: "500m", "ephemeral-storage": "1Gi" })],
    );
    expect(JSON.stringify(collectOriginalRequests(p))).to.equal(
      '{"containers":{"app":{"cpu":"2","memory":"4Gi"}},"initContainers":{"migrate":{"cpu":"500m"}}}',
    );
  });
  it("given no init containers with requests, leaves the key out", () => {
    expect(collectOriginalRequests(pod([container("a", { memory: "1G" })], [container("i")]))).to.deep.equal({
      containers: { a: { memory: "1G" } },
    });
  });
});

describe("parseOriginalRequests", () => {
  it("given its own output, returns the same value", () => {
    const v = { containers: { a: { cpu: "0.5", memory: "129e6" } }, initContainers: { b: { cpu: "1" } } };
    expect(parseOriginalRequests(JSON.stringify(v))).to.deep.equal(v);
  });
  for (const bad of [
    "",
    "[]",
    "{",
    '{"pods":{}}',
    '{"containers":{"a":{"cpu":1}}}',
    '{"containers":{"a":{"gpu":"1"}}}',
    '{"containers":[]}',
  ]) {
    it(`given ${JSON.stringify(bad)}, returns undefined`, () => expect(parseOriginalRequests(bad)).to.equal(undefined));
  }
});
