import { expect } from "chai";
import { seriesFor, seriesQueries } from "../../src/prometheus/flavour-series.js";
import type { PromSample } from "../../src/prometheus/parse-query-response.js";
import { querySeries, withSampleTimes } from "../../src/prometheus/query-series.js";

describe("seriesQueries", () => {
  const cases = [
    {
      name: "given no selector, the plain name",
      spec: { name: "vsphere_host_mem_usage_average" },
      selector: "",
      want: "vsphere_host_mem_usage_average{}",
    },
    {
      name: "given cpu matchers and a selector, both",
      spec: { name: "vsphere_vm_cpu_ready_summation", matchers: 'cpu="instance-total"' },
      selector: ' vcenter="vc01:443" ',
      want: 'vsphere_vm_cpu_ready_summation{cpu="instance-total",vcenter="vc01:443"}',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const q = seriesQueries(c.spec, c.selector);
      expect(q.value).to.equal(c.want);
      expect(q.time).to.equal(`timestamp(${c.want})`);
    });
  }
  it("selects instance-total on every telegraf cpu series and on nothing else", () => {
    for (const s of seriesFor("telegraf"))
      expect(s.matchers, s.name).to.equal(s.name.includes("_cpu_") ? 'cpu="instance-total"' : undefined);
  });
});

describe("withSampleTimes", () => {
  const v = (labels: Record<string, string>, value: number): PromSample => ({ labels: { __name__: "m", ...labels }, value, atMs: 99_000 });
  const t = (labels: Record<string, string>, seconds: number): PromSample => ({ labels, value: seconds, atMs: 99_000 });
  it("given value and timestamp() answers, takes each series' own sample time, not the evaluation time", () => {
    const out = withSampleTimes(
      [v({ moid: "host-11" }, 7), v({ moid: "host-12" }, 8)],
      [t({ moid: "host-12" }, 50), t({ moid: "host-11" }, 40.5)],
    );
    expect(out.map((s) => [s.labels.moid, s.value, s.atMs])).to.deep.equal([
      ["host-11", 7, 40_500],
      ["host-12", 8, 50_000],
    ]);
  });
  it("given a value without a timestamp answer, drops it", () => {
    expect(withSampleTimes([v({ moid: "host-11" }, 7)], [])).to.deep.equal([]);
  });
});

describe("querySeries", () => {
  it("sends two queries per series name, whatever the number of hosts", async () => {
    const sent: string[] = [];
    const many = Array.from({ length: 500 }, (_, i) => ({ labels: { moid: `host-${i}` }, value: i, atMs: 1 }));
    await querySeries({ query: async (q) => (sent.push(q), many) }, "telegraf", "");
    expect(sent.length).to.equal(seriesFor("telegraf").length * 2);
  });
  it("rejects when one query fails", async () => {
    let n = 0;
    const querier = { query: async () => (++n === 3 ? Promise.reject(new Error("boom")) : []) };
    await querySeries(querier, "vmware_exporter", "").then(
      () => expect.fail("should reject"),
      (err: Error) => expect(err.message).to.equal("boom"),
    );
  });
});
