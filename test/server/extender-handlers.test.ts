import { expect } from "chai";
import { Registry } from "prom-client";
import type { MetricsSource } from "../../src/model/metrics-source.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

/** A source that fails the way a bug would: hvx must answer "no opinion", never an error. */
const brokenSource: MetricsSource = {
  latest() {
    throw new TypeError("cannot read properties of undefined");
  },
};

describe("createExtenderHandlers", () => {
  const registry = new Registry();
  const handlers = createExtenderHandlers({ source: brokenSource, policy: DEFAULT_POLICY, metrics: new ExtenderMetrics(registry), log: silentLogger() });
  const body = JSON.stringify({ Pod: { metadata: { name: "p" } }, Nodes: null, NodeNames: ["a", "b"] });

  it("given an internal error in filter, fails open: 200, every node passes, no Error", () => {
    const reply = handlers.filter(body);
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body)).to.deep.equal({ Nodes: null, NodeNames: ["a", "b"], FailedNodes: {}, FailedAndUnresolvableNodes: {}, Error: "" });
  });

  it("given an internal error in prioritize, answers the neutral unknownScore for every node", () => {
    const reply = handlers.prioritize(body);
    expect(reply.status).to.equal(200);
    expect(JSON.parse(reply.body)).to.deep.equal([{ Host: "a", Score: 5 }, { Host: "b", Score: 5 }]);
  });

  it("counts internal errors in hvx_extender_requests_total", async () => {
    const text = await registry.metrics();
    expect(text).to.match(/hvx_extender_requests_total\{verb="filter",outcome="internal_error"\} 1/);
    expect(text).to.match(/hvx_extender_requests_total\{verb="prioritize",outcome="internal_error"\} 1/);
  });
});
