import { expect } from "chai";
import { HostVisits } from "../../src/placement/host-visits.js";

describe("HostVisits", () => {
  it("given a host met twice in one pass, says first only the first time", () => {
    const visits = new HostVisits();
    const pass = visits.begin();
    expect([visits.first("host-1", pass), visits.first("host-2", pass), visits.first("host-1", pass)]).to.deep.equal([true, true, false]);
  });

  it("given a new pass, meets every host afresh, even while an earlier pass is still going", () => {
    const visits = new HostVisits();
    const outer = visits.begin();
    visits.first("host-1", outer);
    const inner = visits.begin();
    expect(visits.first("host-1", inner)).to.equal(true);
    // The outer pass may meet host-1 again (harmless for a least value), never miss a host it has not met.
    expect(visits.first("host-2", outer)).to.equal(true);
  });
});
