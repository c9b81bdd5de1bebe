import { expect } from "chai";
import { HostPainHistory } from "../../src/vsphere/host-pain-history.js";
import { hostView, inventoryOf, NOW_MS } from "../fixtures/inventory.js";

const HOUR = 3_600_000;

describe("HostPainHistory", () => {
  const calm = hostView({ id: "host-a", metrics: { sampledAtMs: NOW_MS, balloonMiB: 0, swapInKBps: 0 } });
  const ballooning = hostView({ id: "host-b", metrics: { sampledAtMs: NOW_MS, balloonMiB: 512, swapInKBps: 0 } });
  const swapping = hostView({ id: "host-c", metrics: { sampledAtMs: NOW_MS, balloonMiB: 0, swapInKBps: 30 } });
  const unknown = hostView({ id: "host-d", metrics: null });

  it("given balloon or swap-in above zero, remembers the host for the window; calm and unknown hosts are not in it", () => {
    const h = new HostPainHistory();
    h.observe(inventoryOf([calm, ballooning, swapping, unknown], []), () => false, NOW_MS);
    expect([...h.memoryPainSince(NOW_MS + 23 * HOUR, 24 * HOUR)].sort()).to.deep.equal(["host-b", "host-c"]);
    expect([...h.memoryPainSince(NOW_MS + 25 * HOUR, 24 * HOUR)]).to.deep.equal([]);
  });

  it("given a host hot once, it is recently hot for an hour after", () => {
    const h = new HostPainHistory();
    h.observe(inventoryOf([calm], []), (id) => id === "host-a", NOW_MS);
    h.observe(inventoryOf([calm], []), () => false, NOW_MS + 30 * 60_000);
    expect([...h.hotSince(NOW_MS + 59 * 60_000, HOUR)]).to.deep.equal(["host-a"]);
    expect([...h.hotSince(NOW_MS + 61 * 60_000, HOUR)]).to.deep.equal([]);
  });

  it("forgets a host not seen for more than a day", () => {
    const h = new HostPainHistory();
    h.observe(inventoryOf([ballooning], []), () => true, NOW_MS);
    h.observe(inventoryOf([calm], []), () => false, NOW_MS + 25 * HOUR);
    expect([...h.memoryPainSince(NOW_MS + 25 * HOUR, 48 * HOUR)]).to.deep.equal([]);
    expect([...h.hotSince(NOW_MS + 25 * HOUR, 48 * HOUR)]).to.deep.equal([]);
  });
});
