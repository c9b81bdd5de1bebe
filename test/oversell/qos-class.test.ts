import { expect } from "chai";
import { podResourceTotals, qosClass } from "../../src/oversell/qos-class.js";
import { container, pod } from "./fixtures.js";

describe("qosClass", () => {
  const cases: Array<{ name: string; p: ReturnType<typeof pod>; want: string }> = [
    { name: "no requests or limits", p: pod([container("a")]), want: "BestEffort" },
    { name: "zero requests only", p: pod([container("a", { cpu: "0" })]), want: "BestEffort" },
    {
      name: "requests equal limits for both",
      p: pod([container("a", { cpu: "1", memory: "1Gi" }, { cpu: "1000m", memory: "1024Mi" })]),
      want: "Guaranteed",
    },
    { name: "a limit without cpu", p: pod([container("a", { memory: "1Gi" }, { memory: "1Gi" })]), want: "Burstable" },
    {
      name: "request below limit",
      p: pod([container("a", { cpu: "500m", memory: "1Gi" }, { cpu: "1", memory: "1Gi" })]),
      want: "Burstable",
    },
    {
      name: "init container without limits",
      p: pod([container("a", { cpu: "1", memory: "1Gi" }, { cpu: "1", memory: "1Gi" })], [container("i", { cpu: "1" })]),
      want: "Burstable",
    },
    { name: "request only", p: pod([container("a", { cpu: "1" })]), want: "Burstable" },
    {
      name: "extended resources ignored",
      p: pod([container("a", { cpu: "1", memory: "1", "nvidia.com/gpu": "1" }, { cpu: "1", memory: "1", "nvidia.com/gpu": "1" })]),
      want: "Guaranteed",
    },
  ];
  for (const c of cases) it(`given ${c.name}, returns ${c.want}`, () => expect(qosClass(c.p)).to.equal(c.want));

  // 20 000 x 0.1 cpu = 2 000 000m; 20 000 x 0.5Gi = 10 737 418 240 000 bytes. Summed as exact
  // fractions the denominator grew by a factor of 10 per term (1.5 s); integers stay small.
  const many = (request: string, limit: string) =>
    pod(Array.from({ length: 20_000 }, (_, i) => container(`c${i}`, { cpu: request, memory: "0.5Gi" }, { cpu: limit, memory: "512Mi" })));

  it("given 20 000 containers, sums integer millicores and bytes", () => {
    const totals = podResourceTotals(many("0.1", "100m"));
    expect(totals.requests).to.deep.equal({ cpu: 2_000_000n, memory: 10_737_418_240_000n });
    expect(totals.limits).to.deep.equal({ cpu: 2_000_000n, memory: 10_737_418_240_000n });
    expect(totals.everyContainerLimitsBoth).to.equal(true);
  });

  it("given 20 000 containers with requests equal to limits in other forms, returns Guaranteed", () => {
    expect(qosClass(many("0.1", "100m"))).to.equal("Guaranteed");
  });

  it("given 20 000 containers with cpu requests 1m under their limits, returns Burstable", () => {
    expect(qosClass(many("0.099", "100m"))).to.equal("Burstable");
  });
});
