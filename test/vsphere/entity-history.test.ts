import { expect } from "chai";
import { EntityHistory } from "../../src/vsphere/entity-history.js";

const T1 = 1_764_410_700_000;
const T2 = T1 + 300_000;
const T3 = T1 + 600_000;

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
    expect(h.sampleAt(T1)).to.deep.equal({
      sampledAtMs: T1,
      intervalS: 300,
      values: new Map([
        ["cpu.ready.summation", 150],
        ["mem.vmmemctl.average", 2048],
      ]),
    });
  });

  it("given a counter set in a later row only, leaves it out of the earlier sample (unknown, never 0)", () => {
    const h = new EntityHistory();
    h.row(T1, 300);
    h.set(h.row(T2, 300), "mem.swapped.average", 0);
    expect(h.sampleAt(T1)?.values).to.deep.equal(new Map());
    expect(h.sampleAt(T2)?.values).to.deep.equal(new Map([["mem.swapped.average", 0]]));
  });

  it("given a time it has no sample for, returns undefined", () => {
    const h = new EntityHistory();
    h.row(T1, 300);
    expect(h.sampleAt(T2)).to.equal(undefined);
  });
});
