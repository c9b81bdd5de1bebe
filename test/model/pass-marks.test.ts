import { expect } from "chai";
import { PassMarks } from "../../src/model/pass-marks.js";

describe("PassMarks", () => {
  it("given a key met twice in one pass, says first only the first time", () => {
    const marks = new PassMarks();
    const pass = marks.begin();
    expect([marks.first("host-1", pass), marks.first("host-2", pass), marks.first("host-1", pass)]).to.deep.equal([true, true, false]);
  });

  it("given a new pass, meets every key afresh, even while an earlier pass is still going", () => {
    const marks = new PassMarks();
    const outer = marks.begin();
    marks.first("host-1", outer);
    const inner = marks.begin();
    expect(marks.first("host-1", inner)).to.equal(true);
    // The outer pass may meet host-1 again (harmless for a least value), never miss a key it has not met.
    expect(marks.first("host-2", outer)).to.equal(true);
  });

  it("given more keys than its bound, drops them when the next pass begins, never within a pass", () => {
    const marks = new PassMarks(2);
    const pass = marks.begin();
    for (const key of ["a", "b", "c", "d"]) marks.first(key, pass);
    expect(marks.first("a", pass)).to.equal(false);
    const next = marks.begin();
    expect(marks.first("a", next)).to.equal(true);
  });
});
