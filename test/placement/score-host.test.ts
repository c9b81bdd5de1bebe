import { expect } from "chai";
import fc from "fast-check";
import type { HostMetrics, MemState } from "../../src/model/inventory.js";
import { assessHost } from "../../src/placement/assess-host.js";
import { hostHeadroom, penalise, scoreHost } from "../../src/placement/score-host.js";
import { hostView, NOW_MS } from "../fixtures/inventory.js";
import { DEFAULT_POLICY } from "../fixtures/policy.js";

const t = DEFAULT_POLICY.thresholds;
const score = (m: Partial<HostMetrics>) => {
  const host = hostView({ metrics: m });
  return scoreHost(assessHost(host, undefined, t, NOW_MS), host.metrics!, undefined, t);
};

describe("scoreHost", () => {
  const cases: Array<{ name: string; metrics: Partial<HostMetrics>; want: number }> = [
    // headroom = 0.4*1 + 0.3*1 + 0.2*1 + 0.1*1 = 1 -> 5 + 5 = 10
    { name: "given an idle host, returns 10", metrics: { cpuReadyPercent: 0, cpuUsagePercent: 0, memUsagePercent: 0 }, want: 10 },
    // 0.4*(1-1/10) + 0.3*(1-30/90) + 0.2*(1-40/95) + 0.1 = 0.36+0.2+0.1158+0.1 = 0.776 -> 5 + round(3.88) = 9
    { name: "given the fixture host (ready 1, cpu 30, mem 40), returns 9", metrics: {}, want: 9 },
    // warm: 0.4*(1-6/10) + 0.2 + 0.1158 + 0.1 = 0.5758 -> 1 + floor(1.73) = 2
    { name: "given ready 6 % (warm), returns 2", metrics: { cpuReadyPercent: 6 }, want: 2 },
    { name: "given ready 12 % (hot), returns 0", metrics: { cpuReadyPercent: 12 }, want: 0 },
    // cool but busy: 0.4*0.9 + 0.3*(1-80/90) + 0.2*(1-90/95) + 0.1 = 0.36+0.0333+0.0105+0.1 = 0.504 -> 5 + round(2.52) = 8
    {
      name: "given a busy but cool host, still scores above any warm host",
      metrics: { cpuUsagePercent: 80, memUsagePercent: 85 },
      want: 8,
    },
  ];
  for (const c of cases) it(c.name, () => expect(score(c.metrics)).to.equal(c.want));

  const MEM_STATES: MemState[] = ["high", "clear", "soft", "hard", "low"];
  const metricsArb = fc.record({
    cpuReadyPercent: fc.double({ min: 0, max: 40, noNaN: true }),
    cpuUsagePercent: fc.double({ min: 0, max: 100, noNaN: true }),
    memUsagePercent: fc.double({ min: 0, max: 100, noNaN: true }),
    balloonPercent: fc.double({ min: 0, max: 5, noNaN: true }),
    swapInKBps: fc.double({ min: 0, max: 50, noNaN: true }),
    memState: fc.integer({ min: 0, max: 4 }),
  });
  const deltaArb = fc.record({
    cpuReadyPercent: fc.double({ min: 0, max: 20, noNaN: true }),
    cpuUsagePercent: fc.double({ min: 0, max: 50, noNaN: true }),
    memUsagePercent: fc.double({ min: 0, max: 50, noNaN: true }),
    balloonPercent: fc.double({ min: 0, max: 3, noNaN: true }),
    swapInKBps: fc.double({ min: 0, max: 20, noNaN: true }),
    memState: fc.integer({ min: 0, max: 4 }),
  });

  it("property: a host cooler on every metric never scores below a hotter one; scores are integers 0..10", () => {
    fc.assert(
      fc.property(metricsArb, deltaArb, (cool, d) => {
        const hot = {
          cpuReadyPercent: cool.cpuReadyPercent + d.cpuReadyPercent,
          cpuUsagePercent: Math.min(100, cool.cpuUsagePercent + d.cpuUsagePercent),
          memUsagePercent: Math.min(100, cool.memUsagePercent + d.memUsagePercent),
          balloonPercent: cool.balloonPercent + d.balloonPercent,
          swapInKBps: cool.swapInKBps + d.swapInKBps,
          memState: MEM_STATES[Math.min(4, cool.memState + d.memState)],
        };
        const a = score({ ...cool, memState: MEM_STATES[cool.memState] });
        const b = score(hot);
        expect(Number.isInteger(a) && a >= 0 && a <= 10).to.equal(true);
        expect(a).to.be.at.least(b);
      }),
      { numRuns: 2000 },
    );
  });

  it("property: any host past the warn level scores below every cool host", () => {
    fc.assert(
      fc.property(metricsArb, metricsArb, (x, y) => {
        const mx = { ...x, memState: MEM_STATES[x.memState] };
        const my = { ...y, memState: MEM_STATES[y.memState] };
        const hx = assessHost(hostView({ metrics: mx }), undefined, t, NOW_MS).heat;
        const hy = assessHost(hostView({ metrics: my }), undefined, t, NOW_MS).heat;
        if (hx === "cool" && hy !== "cool") expect(score(mx)).to.be.above(score(my));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("hostHeadroom with missing counters (unknown, not free)", () => {
  const only = (m: Partial<HostMetrics>): HostMetrics => ({ sampledAtMs: NOW_MS, ...m });
  const cases: Array<{ name: string; m: HostMetrics; vm?: { cpuReadyPercent?: number }; want: number | undefined }> = [
    // the weighted mean over the known terms: 0.3 x (1 - 45/90) / 0.3
    {
      name: "given only cpu usage 45 %, returns its own free share 0.5 (missing terms add nothing)",
      m: only({ cpuUsagePercent: 45 }),
      want: 0.5,
    },
    // (0.4 x 0.5 + 0.2 x 1) / 0.6
    {
      name: "given ready 5 % and memory 0 %, returns their weighted mean 0.667",
      m: only({ cpuReadyPercent: 5, memUsagePercent: 0 }),
      want: (0.4 * 0.5 + 0.2) / 0.6,
    },
    // reclaim known through swap-in only: min over the known of the two
    { name: "given only swap-in 0.5 KB/s, returns 0.5", m: only({ swapInKBps: 0.5 }), want: 0.5 },
    // host ready unknown, the node VM's ready known: the ready term is the VM's
    { name: "given only the node VM's ready 5 %, returns 0.5", m: only({}), vm: { cpuReadyPercent: 5 }, want: 0.5 },
    { name: "given no counter at all, returns undefined", m: only({}), want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const h = hostHeadroom(c.m, c.vm ? { sampledAtMs: NOW_MS, ...c.vm } : undefined, t);
      if (c.want === undefined) expect(h).to.equal(undefined);
      else expect(h).to.be.closeTo(c.want, 1e-9);
    });
  }

  it("given only cpu usage 80 % known, scores 6 (1 - 80/90 = 0.11), not 9 as if the missing counters were free", () => {
    expect(
      score({
        cpuReadyPercent: undefined,
        memUsagePercent: undefined,
        balloonPercent: undefined,
        swapInKBps: undefined,
        memState: undefined,
        cpuUsagePercent: 80,
      }),
    ).to.equal(6);
  });
});

describe("penalise", () => {
  const cases: Array<{ name: string; score: number; heat: "hot" | "warm" | "cool"; penalty: number; want: number }> = [
    { name: "given a cool 9 and 2 penalty points, returns 7", score: 9, heat: "cool", penalty: 2, want: 7 },
    {
      name: "given a cool 9 and 6 points, stops at the cool floor 5 (still above any warm host)",
      score: 9,
      heat: "cool",
      penalty: 6,
      want: 5,
    },
    {
      name: "given a warm 3 and 4 points, stops at the warm floor 1 (still above a hot host)",
      score: 3,
      heat: "warm",
      penalty: 4,
      want: 1,
    },
    { name: "given a hot 0, stays 0", score: 0, heat: "hot", penalty: 3, want: 0 },
    { name: "given no penalty, returns the score unchanged", score: 8, heat: "cool", penalty: 0, want: 8 },
  ];
  for (const c of cases) it(c.name, () => expect(penalise(c.score, c.heat, c.penalty)).to.equal(c.want));
});
