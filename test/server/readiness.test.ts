import { expect } from "chai";
import { decideReadiness, pollCycleEnded, ReadinessGate } from "../../src/server/readiness.js";

describe("decideReadiness", () => {
  const base = { startedAtMs: 1_000_000, graceSeconds: 30, firstPollEnded: false, shuttingDown: false };
  const cases: Array<{ name: string; over: Partial<typeof base> & { nowMs: number }; ready: boolean; reason: RegExp }> = [
    {
      name: "just started, first poll still running",
      over: { nowMs: 1_000_000 },
      ready: false,
      reason: /^starting: waiting for the first vCenter poll cycle \(at most 30 s more\)$/,
    },
    { name: "29 s in, first poll still running", over: { nowMs: 1_029_000 }, ready: false, reason: /at most 1 s more/ },
    {
      name: "first poll ended (success or failure) at once",
      over: { nowMs: 1_000_500, firstPollEnded: true },
      ready: true,
      reason: /^ok$/,
    },
    {
      name: "grace over, first poll still running",
      over: { nowMs: 1_030_000 },
      ready: true,
      reason: /^ok \(first vCenter poll cycle still running/,
    },
    { name: "grace 0", over: { nowMs: 1_000_000, graceSeconds: 0 }, ready: true, reason: /^ok/ },
    {
      name: "shutting down, whatever else",
      over: { nowMs: 9_000_000, firstPollEnded: true, shuttingDown: true },
      ready: false,
      reason: /^shutting down$/,
    },
    { name: "a clock that went backwards", over: { nowMs: 900_000 }, ready: false, reason: /at most 30 s more/ },
  ];
  for (const c of cases) {
    it(`given ${c.name}: ${c.ready ? "ready" : "not ready"}`, () => {
      const r = decideReadiness({ ...base, ...c.over });
      expect(r.ready).to.equal(c.ready);
      expect(r.reason).to.match(c.reason);
    });
  }

  it("pollCycleEnded: a success or a failure ends the first cycle; nothing yet does not", () => {
    expect(pollCycleEnded({ consecutiveFailures: 0 })).to.equal(false);
    expect(pollCycleEnded({ consecutiveFailures: 0, lastAttemptMs: 5 })).to.equal(false);
    expect(pollCycleEnded({ consecutiveFailures: 1, lastAttemptMs: 5, lastError: "ECONNREFUSED" })).to.equal(true);
    expect(pollCycleEnded({ consecutiveFailures: 0, lastSuccessMs: 5 })).to.equal(true);
  });

  it("ReadinessGate: once ready, vCenter never makes it unready again; only shutdown does", () => {
    let now = 0;
    let ended = false;
    const gate = new ReadinessGate({ startedAtMs: 0, graceSeconds: 30, firstPollEnded: () => ended, clock: () => now });
    expect(gate.current().ready).to.equal(false);
    ended = true;
    expect(gate.current().ready).to.equal(true);
    ended = false; // whatever the source says later
    now = 10_000;
    expect(gate.current().ready).to.equal(true);
    gate.beginShutdown();
    expect(gate.current()).to.deep.equal({ ready: false, reason: "shutting down" });
  });

  it("ReadinessGate: given a stalled event loop, is not ready with the loop's reason; ready again once it recovers", () => {
    let alive = true;
    const reason = "event loop blocked 20.0 s of the last 30 s (more than 50 %)";
    const gate = new ReadinessGate({
      startedAtMs: 0,
      graceSeconds: 30,
      firstPollEnded: () => true,
      clock: () => 0,
      liveness: () => (alive ? { alive, reason: "ok" } : { alive, reason }),
    });
    expect(gate.current()).to.deep.equal({ ready: true, reason: "ok" });
    alive = false;
    expect(gate.current()).to.deep.equal({ ready: false, reason });
    alive = true;
    expect(gate.current()).to.deep.equal({ ready: true, reason: "ok" });
    alive = false;
    gate.beginShutdown();
    expect(gate.current()).to.deep.equal({ ready: false, reason: "shutting down" });
  });
});
