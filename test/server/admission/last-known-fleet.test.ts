import { expect } from "chai";
import { Writable } from "node:stream";
import type { HostView } from "../../../src/model/inventory.js";
import { createLogger } from "../../../src/observability/logger.js";
import { assessHostAlone } from "../../../src/placement/assess-host.js";
import { LastKnownFleet } from "../../../src/server/admission/last-known-fleet.js";
import { hostView, NOW_MS } from "../../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../../fixtures/policy.js";

const T = DEFAULT_POLICY.thresholds;
const LATER = NOW_MS + 600_000; // 10 minutes on: every sample and inventory entry is stale
const cool = (id: string, over: Parameters<typeof hostView>[0] = {}) => hostView({ id, name: id, vcpuPerPcpu: 2, ...over });
const hot = (id: string) => cool(id, { metrics: { cpuReadyPercent: 14 } });

function tracker(initial: readonly HostView[]) {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) });
  const state = { hosts: initial, now: NOW_MS };
  const fleet = new LastKnownFleet({
    hosts: () => state.hosts,
    assess: (h, now) => assessHostAlone(h, T, now),
    clock: () => state.now,
    log: createLogger("info", sink),
  });
  return { fleet, state, lines };
}

describe("LastKnownFleet", () => {
  it("given no host data since start, returns undefined (no oversell) and warns once, saying why", () => {
    const { fleet, lines } = tracker([]);
    expect(fleet.current()).to.equal(undefined);
    expect(fleet.current()).to.equal(undefined);
    expect(lines.map((l) => l.msg)).to.deep.equal([
      "admission: no vCenter host data since start; no oversell (ratios capped at 1.0) until hosts are known",
    ]);
  });

  it("given fresh hosts, returns the current view, not marked last known", () => {
    const { fleet } = tracker([cool("a"), hot("b")]);
    expect(fleet.current()).to.deep.equal({ hostCount: 2, vcpuPerPcpu: 2, vramPerPram: 0.8, hotHostCount: 1, hotPercent: 50 });
  });

  it("given the hosts then gone (snapshot dropped), returns the last fresh view marked last known", () => {
    const { fleet, state, lines } = tracker([cool("a"), hot("b")]);
    fleet.current();
    state.hosts = [];
    expect(fleet.current()).to.deep.include({ vcpuPerPcpu: 2, hotPercent: 50, lastKnown: true });
    expect(lines.at(-1)?.msg).to.equal(
      "admission: vCenter host data missing or stale; keeping the last known stacked cap and hot-host brake",
    );
  });

  it("given every host's inventory stale, returns the view of those hosts marked last known, hot ones still hot", () => {
    const { fleet, state } = tracker([cool("a"), hot("b")]);
    fleet.current();
    state.now = LATER;
    expect(fleet.current()).to.deep.include({ hostCount: 2, hotHostCount: 1, lastKnown: true });
  });

  it("given a hot host whose metrics go stale while the inventory stays fresh, keeps counting it hot (the brake keeps its state)", () => {
    const { fleet, state } = tracker([cool("a"), hot("b")]);
    fleet.current();
    state.hosts = [
      cool("a", { polledAtMs: LATER }),
      cool("b", { polledAtMs: LATER, metrics: { sampledAtMs: NOW_MS - 14_000, cpuReadyPercent: 14 } }),
    ];
    state.now = LATER;
    const view = fleet.current();
    // a: last judged not hot; b: last judged hot. The inventory is fresh, so the view is current.
    expect(view).to.deep.include({ hotHostCount: 1, hotPercent: 50 });
    expect(view?.lastKnown).to.equal(undefined);
  });

  it("given a host hvx never judged while fresh, counts it as it was at its own poll", () => {
    const { fleet, state } = tracker([hot("b")]);
    state.now = LATER; // first review only after the data went stale
    expect(fleet.current()).to.deep.include({ hotHostCount: 1, lastKnown: true });
  });

  it("given fresh data again, follows it and is no longer last known", () => {
    const { fleet, state, lines } = tracker([hot("b")]);
    fleet.current();
    state.hosts = [];
    fleet.current();
    state.hosts = [cool("b")];
    const view = fleet.current();
    expect(view?.lastKnown).to.equal(undefined);
    expect(view?.hotHostCount).to.equal(0);
    expect(lines.at(-1)?.msg).to.equal("admission: fresh vCenter host data again; cap and brake follow it");
  });
});
