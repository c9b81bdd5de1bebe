import { expect } from "chai";
import {
  endedSpellSeconds,
  expectedRemainingSeconds,
  MIN_LONGER_SPELLS,
  SPELL_HISTORY_SIZE,
  withEnded,
  worthEvicting,
} from "../../src/rebalance/spell-cost.js";

const times = (n: number, seconds: number): number[] => Array.from({ length: n }, () => seconds);

describe("expectedRemainingSeconds", () => {
  const cases: Array<{ name: string; history: number[]; elapsedS: number; want: number | undefined }> = [
    // ten spells of 300 s outlast 60 s: each has 240 s left
    { name: "given ten ended spells of 300 s and 60 s elapsed, returns 240", history: times(10, 300), elapsedS: 60, want: 240 },
    // only the ten 300 s spells outlast 60 s (240 s left each); the 40 s ones are over
    {
      name: "given spells shorter than the elapsed time, leaves them out",
      history: [...times(20, 40), ...times(10, 300)],
      elapsedS: 60,
      want: 240,
    },
    // (100 - 60) x 5 + (600 - 60) x 5 = 200 + 2700 = 2900 over 10: 290
    {
      name: "given a mix of longer spells, returns their mean remainder",
      history: [...times(5, 100), ...times(5, 600)],
      elapsedS: 60,
      want: 290,
    },
    {
      name: "given one longer spell too few, returns undefined (no opinion)",
      history: times(MIN_LONGER_SPELLS - 1, 300),
      elapsedS: 60,
      want: undefined,
    },
    {
      name: "given spells that all ended at exactly the elapsed time, returns undefined",
      history: times(20, 60),
      elapsedS: 60,
      want: undefined,
    },
    { name: "given no history, returns undefined", history: [], elapsedS: 60, want: undefined },
  ];
  for (const c of cases) it(c.name, () => expect(expectedRemainingSeconds(c.history, c.elapsedS)).to.equal(c.want));
});

describe("worthEvicting", () => {
  const cases: Array<{ name: string; remainingS: number | undefined; restartS: number; want: boolean }> = [
    { name: "given 31 s expected against a 30 s restart, returns true", remainingS: 31, restartS: 30, want: true },
    { name: "given exactly the restart, returns false (no gain)", remainingS: 30, restartS: 30, want: false },
    { name: "given less than the restart, returns false", remainingS: 10, restartS: 30, want: false },
    { name: "given no estimate, returns false", remainingS: undefined, restartS: 30, want: false },
  ];
  for (const c of cases) it(c.name, () => expect(worthEvicting(c.remainingS, c.restartS)).to.equal(c.want));
});

describe("endedSpellSeconds / withEnded", () => {
  it("given a spell gone from the next map, returns how long it lasted; one still there is not ended", () => {
    const prev = new Map([
      ["a", { sinceMs: 1_000 }],
      ["b", { sinceMs: 5_000 }],
    ]);
    expect(endedSpellSeconds(prev, new Map([["b", {}]]), 91_000)).to.deep.equal([90]);
  });

  it("given more than SPELL_HISTORY_SIZE durations, keeps the newest", () => {
    const full = times(SPELL_HISTORY_SIZE, 1);
    const next = withEnded(full, [7, 8]);
    expect(next.length).to.equal(SPELL_HISTORY_SIZE);
    expect(next.slice(-2)).to.deep.equal([7, 8]);
    expect(withEnded(full, [])).to.equal(full);
  });
});
