import { expect } from "chai";
import { buildPerfBatches, countMetrics, windowOf, type PerfTarget } from "../../src/vsphere/perf-batches.js";

const targets = (n: number, counters: number[]): PerfTarget[] =>
  Array.from({ length: n }, (_, i) => ({ type: "VirtualMachine", id: `vm-${i}`, counterIds: counters }));

describe("buildPerfBatches", () => {
  const cases: Array<{ name: string; targets: PerfTarget[]; max?: number; wantSizes: number[] }> = [
    // 300 x 2 = 600 metrics -> 256 + 256 + 88
    { name: "given 300 entities x 2 counters, returns 3 queries of <= 256", targets: targets(300, [1, 2]), wantSizes: [256, 256, 88] },
    // 128 x 2 = 256 exactly -> one query
    { name: "given exactly 256 metrics, returns one query", targets: targets(128, [1, 2]), wantSizes: [256] },
    // 100 x 3 = 300 -> 256 + 44, an entity split across the boundary (85*3=255, then 1 + 2)
    { name: "given 100 x 3 counters, splits one entity over two queries", targets: targets(100, [1, 2, 3]), wantSizes: [256, 44] },
    { name: "given a small max, honours it", targets: targets(5, [1, 2]), max: 3, wantSizes: [3, 3, 3, 1] },
    { name: "given nothing, returns no query", targets: [], wantSizes: [] },
    { name: "given entities without counters, returns no query", targets: targets(3, []), wantSizes: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const batches = buildPerfBatches(c.targets, c.max);
      expect(batches.map(countMetrics)).to.deep.equal(c.wantSizes);
      const pairs = batches.flat().flatMap((s) => s.metricId.map((m) => `${s.entity.value}/${m.counterId}`));
      expect(new Set(pairs).size).to.equal(c.targets.reduce((n, t) => n + t.counterIds.length, 0));
    });
  }

  it("given a target, writes a real-time latest-sample PerfQuerySpec with _typeName on every data object", () => {
    const [batch] = buildPerfBatches([{ type: "HostSystem", id: "host-16", counterIds: [12] }]);
    expect(batch).to.deep.equal([
      {
        _typeName: "PerfQuerySpec",
        entity: { _typeName: "ManagedObjectReference", type: "HostSystem", value: "host-16" },
        metricId: [{ _typeName: "PerfMetricId", counterId: 12, instance: "" }],
        intervalId: 20,
        maxSample: 1,
      },
    ]);
  });

  it("given a historical window, writes its intervalId, startTime and endTime and no maxSample (real-time only), and windowOf reads it back", () => {
    const window = { intervalId: 1800, startTime: "2026-11-22T10:00:00.000Z", endTime: "2026-11-28T10:00:00.000Z" };
    const batches = buildPerfBatches(targets(3, [1, 2]), 4, window);
    // 3 entities x 2 counters = 6 metrics -> 4 + 2
    expect(batches.map(countMetrics)).to.deep.equal([4, 2]);
    for (const spec of batches.flat()) {
      expect(spec).to.include({ intervalId: 1800, startTime: window.startTime, endTime: window.endTime });
      expect(spec).to.not.have.property("maxSample");
    }
    expect(windowOf(batches[0]![0])).to.deep.equal(window);
    expect(windowOf(buildPerfBatches(targets(1, [1]))[0]![0])).to.equal(undefined);
  });

  it("given a max below 1, throws", () => {
    expect(() => buildPerfBatches(targets(1, [1]), 0)).to.throw(RangeError);
  });
});
