import { expect } from "chai";
import { EntityHistory } from "../../src/vsphere/entity-history.js";

const T1 = 1_764_410_700_000;
const T2 = T1 + 300_000;
const T3 = T1 + 600_000;

/** The sample ending at `atMs` as time, interval and values by counter (read through rowAt, intervalSAt, column). */
function sampleOf(h: EntityHistory, atMs: number, counters: readonly string[]) {
  const row = h.rowAt(atMs);
  if (row === undefined) return undefined;
  const values = counters.flatMap((c) => (h.column(c)?.[row] === undefined ? [] : [[c, h.column(c)![row]] as const]));
  return { sampledAtMs: atMs, intervalS: h.intervalSAt(row), values: Object.fromEntries(values) };
}
const COUNTERS = ["cpu.ready.summation", "mem.vmmemctl.average", "mem.swapped.average"];

describe("EntityHistory", () => {
  it("given samples added out of time order, lists their times in the order first seen", () => {
    const h = new EntityHistory();
    h.row(T2, 300);
    h.row(T1, 300);
    h.row(T2, 300);
    h.row(T3, 300);
    expect([...h.times()]).to.deep.equal([T2, T1, T3]);
  });

  it("given a sample answered twice, keeps the later interval and the later value of a counter, and the counters of both", () => {
    const h = new EntityHistory();
    h.set(h.row(T1, 1800), "cpu.ready.summation", 100);
    const again = h.row(T1, 300);
    h.set(again, "cpu.ready.summation", 150);
    h.set(again, "mem.vmmemctl.average", 2048);
    expect(sampleOf(h, T1, COUNTERS)).to.deep.equal({
      sampledAtMs: T1,
      intervalS: 300,
      values: { "cpu.ready.summation": 150, "mem.vmmemctl.average": 2048 },
    });
  });

  it("given a counter set in a later row only, leaves it out of the earlier sample (unknown, never 0)", () => {
    const h = new EntityHistory();
    h.row(T1, 300);
    h.set(h.row(T2, 300), "mem.swapped.average", 0);
    expect(sampleOf(h, T1, COUNTERS)?.values).to.deep.equal({});
    expect(sampleOf(h, T2, COUNTERS)?.values).to.deep.equal({ "mem.swapped.average": 0 });
    expect(h.column("cpu.ready.summation")).to.equal(undefined);
  });

  it("given a time it has no sample for, returns undefined", () => {
    const h = new EntityHistory();
    h.row(T1, 300);
    expect(h.rowAt(T2)).to.equal(undefined);
  });
});
