import { expect } from "chai";
import { backoffDelayMs } from "../../src/vsphere/backoff-delay.js";

describe("backoffDelayMs", () => {
  const cases: Array<{ name: string; failures: number; random: number; want: number }> = [
    { name: "given no failure, returns the base interval", failures: 0, random: 0.5, want: 20000 },
    // cap 20000, random 1 -> 20000 ; random 0 -> 10000
    { name: "given 1 failure and random 1, returns the cap 20000", failures: 1, random: 1, want: 20000 },
    { name: "given 1 failure and random 0, returns half the cap", failures: 1, random: 0, want: 10000 },
    // cap 20000*2^2 = 80000
    { name: "given 3 failures and random 1, returns 80000", failures: 3, random: 1, want: 80000 },
    // cap min(300000, 20000*2^9) = 300000 ; random 0.5 -> 150000 + 75000
    { name: "given 10 failures, caps at max", failures: 10, random: 0.5, want: 225000 },
    { name: "given 1000 failures, stays capped", failures: 1000, random: 1, want: 300000 },
  ];
  for (const c of cases) {
    it(c.name, () => expect(backoffDelayMs(c.failures, 20000, 300000, () => c.random)).to.equal(c.want));
  }

  it("given the same random, never shrinks as failures grow", () => {
    let previous = 0;
    for (let f = 1; f < 20; f += 1) {
      const d = backoffDelayMs(f, 1000, 60000, () => 0.3);
      expect(d).to.be.at.least(previous);
      previous = d;
    }
  });
});
