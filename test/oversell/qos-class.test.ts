import { expect } from "chai";
import { qosClass } from "../../src/oversell/qos-class.js";
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
});
