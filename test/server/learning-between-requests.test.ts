import { expect } from "chai";
import { Registry } from "prom-client";
import { FakeMetricsSource } from "../../mocks/fake-metrics-source.js";
import { ExtenderMetrics } from "../../src/observability/extender-metrics.js";
import { silentLogger } from "../../src/observability/logger.js";
import { createExtenderHandlers } from "../../src/server/extender-handlers.js";
import { correlatedView, incomingApi, polledInventory } from "../fixtures/correlated-history.js";
import { NOW_MS } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

// With a hard share of 0.8 the correlated-burst cap rejects node-db while api and checkout are
// learnt to burst together (36.4 / 41.6 GHz = 0.88) and passes it once api is alone (0.63).
const policy = { ...DEFAULT_POLICY, correlation: { ...DEFAULT_POLICY.correlation!, hardShare: 0.8 } };
const body = JSON.stringify({
  Pod: { metadata: { name: "api-7", namespace: "shop", uid: "incoming" } },
  NodeNames: ["node-db", "node-quiet"],
});

describe("the extender learns a poll's correlated groups between requests", () => {
  it("given new forecasts, answers with the earlier groups, learns in slices run later, then answers with the new ones", () => {
    const source = new FakeMetricsSource(polledInventory(true));
    const later: Array<() => void> = [];
    const handlers = createExtenderHandlers({
      source,
      policy,
      metrics: new ExtenderMetrics(new Registry()),
      log: silentLogger(),
      clock: () => NOW_MS,
      enrich: (ctx) => ({ ...ctx, cluster: { view: correlatedView, pod: incomingApi } }),
      runLater: (task) => void later.push(task),
    });
    const failed = () => Object.keys((JSON.parse(handlers.filter(body).body) as { FailedNodes: object }).FailedNodes);

    expect(failed(), "the first forecasts: learnt in the request").to.deep.equal(["node-db"]);
    expect(later).to.have.length(0);

    source.set(polledInventory(false));
    expect(failed(), "the earlier groups stand in").to.deep.equal(["node-db"]);
    expect(later).to.have.length(1);
    let slices = 0;
    while (later.length > 0) {
      later.shift()!();
      slices++;
    }
    expect(slices, "nothing left after the last slice").to.be.at.least(1);
    expect(failed(), "api learnt alone").to.deep.equal([]);
    expect(later, "nothing more to learn").to.have.length(0);
  });
});
