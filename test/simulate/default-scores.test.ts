import { expect } from "chai";
import { balancedAllocationScore, leastAllocatedScore, leastRequestedScore } from "../../src/simulate/default-scores.js";

describe("leastRequestedScore / leastAllocatedScore (k8s NodeResourcesFit LeastAllocated)", () => {
  const cases: Array<{ name: string; cpu: [number, number]; mem: [number, number]; want: number }> = [
    // CPU ((4000 - 0) x 100) / 4000 = 100; memory ((10000 - 0) x 100) / 10000 = 100; (100 + 100) / 2 = 100
    { name: "nothing requested scores 100", cpu: [0, 4000], mem: [0, 10000], want: 100 },
    // CPU ((4000 - 3000) x 100) / 4000 = 25; memory ((10000 - 5000) x 100) / 10000 = 50; (25 + 50) / 2 = 37
    { name: "k8s case: 3000m of 4000m and 5000 of 10000 -> 37", cpu: [3000, 4000], mem: [5000, 10000], want: 37 },
    // CPU ((6000 - 3000) x 100) / 6000 = 50; memory ((10000 - 5000) x 100) / 10000 = 50 -> 50
    { name: "k8s case: 3000m of 6000m and 5000 of 10000 -> 50", cpu: [3000, 6000], mem: [5000, 10000], want: 50 },
    // CPU requested > capacity -> 0; memory 50 -> (0 + 50) / 2 = 25
    { name: "over capacity scores 0 for that resource", cpu: [5000, 4000], mem: [5000, 10000], want: 25 },
    // CPU ((3 - 1) x 100) / 3 = 66 (integer division)
    { name: "integer division truncates", cpu: [1, 3], mem: [1, 3], want: 66 },
  ];
  for (const c of cases) it(c.name, () => expect(leastAllocatedScore(c.cpu[0], c.cpu[1], c.mem[0], c.mem[1])).to.equal(c.want));
  it("given zero capacity, returns 0", () => expect(leastRequestedScore(0, 0)).to.equal(0));
});

describe("balancedAllocationScore (k8s NodeResourcesBalancedAllocation)", () => {
  const cases: Array<{ name: string; cpu: [number, number]; mem: [number, number]; want: number }> = [
    // fractions 0.75 and 0.5: std = |0.75 - 0.5| / 2 = 0.125; (1 - 0.125) x 100 = 87.5 -> 87
    { name: "3000/4000 cpu, 5000/10000 memory -> 87", cpu: [3000, 4000], mem: [5000, 10000], want: 87 },
    // fractions equal: std 0 -> 100
    { name: "equal fractions score 100", cpu: [2000, 4000], mem: [5000, 10000], want: 100 },
    // cpu fraction capped at 1; memory 0 -> std 0.5 -> 50
    { name: "fractions are capped at 1", cpu: [8000, 4000], mem: [0, 10000], want: 50 },
    // k8s: 6000/10000 cpu and 0/20000 memory -> std 0.3 -> 70
    { name: "k8s case: 0.6 and 0 -> 70", cpu: [6000, 10000], mem: [0, 20000], want: 70 },
  ];
  for (const c of cases) it(c.name, () => expect(balancedAllocationScore(c.cpu[0], c.cpu[1], c.mem[0], c.mem[1])).to.equal(c.want));
});
