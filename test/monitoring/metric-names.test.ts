import { expect } from "chai";
import { join } from "node:path";
import { hvxExportedNames, metricNamesIn } from "./metric-names.js";

describe("metricNamesIn", () => {
  const cases: Array<{ name: string; expr: string; want: string[] }> = [
    { name: "a bare selector", expr: "hvx_host_heat", want: ["hvx_host_heat"] },
    { name: "label matchers and strings are not names", expr: 'hvx_host_heat{heat="hot",host=~"esx-.*"} == 1', want: ["hvx_host_heat"] },
    {
      name: "functions, ranges, grouping and join clauses are not names",
      expr: "histogram_quantile(0.99, sum by (verb, le) (rate(hvx_extender_request_duration_seconds_bucket[5m]))) > 1",
      want: ["hvx_extender_request_duration_seconds_bucket"],
    },
    {
      name: "both sides of a join, and set operators",
      expr: "(a_total / b_total > 0.25) * on (node) group_left (host, cluster) max by (node, host) (hvx_node_info) and on (host) c_percent > 10",
      want: ["a_total", "b_total", "hvx_node_info", "c_percent"],
    },
    { name: "numbers and time() are not names", expr: "min by (listener) (x_seconds) - time() < 14 * 86400 + 1e3", want: ["x_seconds"] },
  ];
  for (const c of cases)
    it(`given ${c.name}, returns ${c.want.join(", ")}`, () => expect([...metricNamesIn(c.expr)]).to.have.members(c.want));
});

describe("hvxExportedNames", () => {
  it("holds the hvx_* names registered in src, histogram series and prom-client's defaults, and nothing made up", async () => {
    const names = await hvxExportedNames(join(process.cwd(), "src"));
    for (const n of [
      "hvx_host_cpu_ready_percent",
      "hvx_node_info",
      "hvx_cluster_cache_age_seconds",
      "hvx_extender_request_duration_seconds_bucket",
      "process_cpu_seconds_total",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(names.has(n), n).to.equal(true);
    }
    for (const n of ["hvx_host_cpu_ready", "hvx_process_process_cpu_seconds_total", "hvx_filter_node_verdicts_total_bucket"])
      expect(names.has(n), n).to.equal(false);
  });
});
