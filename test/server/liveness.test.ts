import { expect } from "chai";
import { decideLiveness, EventLoopWatch, type LoopDelaySample } from "../../src/server/liveness.js";

describe("decideLiveness", () => {
  const NOW = 100_000;
  const cases: Array<{ name: string; samples: LoopDelaySample[]; want: { alive: boolean; reason: string } }> = [
    { name: "given no delay, returns alive", samples: [], want: { alive: true, reason: "ok" } },
    {
      // one 10 s stall (a long GC, a huge body): 10 / 30 = 33 % <= 50 %
      name: "given one 10 s stall in the window, returns alive",
      samples: [{ atMs: NOW - 5_000, delayMs: 10_000 }],
      want: { alive: true, reason: "ok" },
    },
    {
      // blocked 3 s of every 4 s: 6 stalls x 3 s = 18 s of 30 = 60 % > 50 %
      name: "given 3 s stalls every 4 s, returns dead with the blocked time",
      samples: [1, 5, 9, 13, 17, 21].map((s) => ({ atMs: NOW - s * 1000, delayMs: 3_000 })),
      want: { alive: false, reason: "event loop blocked 18.0 s of the last 30 s (more than 50 %)" },
    },
    {
      // exactly 15 s of 30: not more than half
      name: "given exactly half the window blocked, returns alive",
      samples: [{ atMs: NOW - 1_000, delayMs: 15_000 }],
      want: { alive: true, reason: "ok" },
    },
    {
      // 20 s blocked, but 31 s ago and more: outside the window
      name: "given stalls older than the window, returns alive",
      samples: [{ atMs: NOW - 30_000, delayMs: 20_000 }],
      want: { alive: true, reason: "ok" },
    },
  ];
  for (const c of cases) it(c.name, () => expect(decideLiveness(c.samples, NOW)).to.deep.equal(c.want));
});

describe("EventLoopWatch", () => {
  it("given checks that run late, sums the delays of the window; given on-time checks after it, recovers", () => {
    let now = 0;
    const watch = new EventLoopWatch({ clock: () => now, intervalMs: 500, windowMs: 30_000 });
    watch.check();
    // 8 checks each 2.5 s late (due every 0.5 s, run every 3 s): 20 s blocked in 24 s
    for (let i = 0; i < 8; i++) {
      now += 3_000;
      watch.check();
    }
    expect(watch.current()).to.deep.equal({ alive: false, reason: "event loop blocked 20.0 s of the last 30 s (more than 50 %)" });
    // 30 s of checks on time: the stalls leave the window
    for (let i = 0; i < 60; i++) {
      now += 500;
      watch.check();
    }
    expect(watch.current()).to.deep.equal({ alive: true, reason: "ok" });
  });

  it("given a real event loop blocked by synchronous work, reports it dead", async () => {
    const watch = new EventLoopWatch({ intervalMs: 20, windowMs: 1_000 });
    watch.start();
    try {
      await new Promise((r) => setTimeout(r, 50));
      const until = Date.now() + 900;
      while (Date.now() < until); // blocks the loop ~900 ms of the 1 s window
      await new Promise((r) => setTimeout(r, 30)); // lets the late check run
      expect(watch.current().alive).to.equal(false);
    } finally {
      watch.stop();
    }
  });
});
