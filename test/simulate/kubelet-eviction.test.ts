import { expect } from "chai";
import { choosePodsToEvict, rankForEviction, type EvictionCandidate } from "../../src/simulate/kubelet-eviction.js";

const pod = (p: number, usageMiB: number, requestMiB: number, priority = 0): EvictionCandidate => ({
  pod: p,
  usageMiB,
  requestMiB,
  priority,
});

describe("rankForEviction (kubelet rankMemoryPressure)", () => {
  const cases: Array<{ name: string; pods: EvictionCandidate[]; want: number[] }> = [
    { name: "usage over request goes first, even at higher priority", pods: [pod(1, 100, 200, 0), pod(2, 300, 200, 1000)], want: [2, 1] },
    { name: "among pods over request, lower priority first", pods: [pod(1, 300, 200, 1000), pod(2, 300, 200, 0)], want: [2, 1] },
    { name: "same priority: larger usage above request first", pods: [pod(1, 250, 200), pod(2, 500, 200)], want: [2, 1] },
    { name: "full tie: lower pod index first (determinism)", pods: [pod(7, 100, 100), pod(3, 100, 100)], want: [3, 7] },
  ];
  for (const c of cases) it(c.name, () => expect(rankForEviction(c.pods).map((x) => x.pod)).to.deep.equal(c.want));
});

describe("choosePodsToEvict", () => {
  it("given enough memory available, evicts nothing", () => {
    expect(choosePodsToEvict([pod(1, 500, 100)], 200, 100)).to.deep.equal([]);
  });
  it("evicts in rank order until available reaches the threshold", () => {
    // available 0; evict pod 2 (over request) -> 300; still < 400, evict pod 1 -> 400
    expect(choosePodsToEvict([pod(1, 100, 200), pod(2, 300, 200), pod(3, 50, 100, 5)], 0, 400)).to.deep.equal([2, 1]);
  });
  it("given two eviction-manager rounds (one 20 s step at 10 s each), evicts at most two pods however short memory is", () => {
    expect(choosePodsToEvict([pod(1, 100, 200), pod(2, 300, 200), pod(3, 50, 100, 5)], -5000, 100, 2)).to.deep.equal([2, 1]);
  });
  it("given one round, evicts the first-ranked pod only", () => {
    expect(choosePodsToEvict([pod(1, 100, 200), pod(2, 300, 200)], 0, 400, 1)).to.deep.equal([2]);
  });
});
