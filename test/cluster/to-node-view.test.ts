import { expect } from "chai";
import { toNodeView } from "../../src/cluster/to-node-view.js";

describe("toNodeView", () => {
  it("given a wire Node, keeps identity, allocatable in millicores/bytes, labels and annotations", () => {
    const view = toNodeView({
      metadata: { name: "n1", labels: { a: "1" }, annotations: { b: "2" } },
      spec: { providerID: "vsphere://4205a1b2-c3d4-e5f6-a7b8-000000000001" },
      status: { allocatable: { cpu: "7800m", memory: "32Gi" }, nodeInfo: { systemUUID: "B2A10542-D4C3-F6E5-A7B8-000000000001" } },
    });
    expect(view).to.deep.equal({
      name: "n1",
      providerID: "vsphere://4205a1b2-c3d4-e5f6-a7b8-000000000001",
      systemUUID: "B2A10542-D4C3-F6E5-A7B8-000000000001",
      allocatable: { cpuMilli: 7800, memoryBytes: 32 * 1024 ** 3 },
      labels: { a: "1" },
      annotations: { b: "2" },
    });
  });

  it("given an unreadable allocatable, counts 0 and reports the problem", () => {
    const problems: string[] = [];
    const view = toNodeView({ metadata: { name: "n2" }, status: { allocatable: { cpu: "eight", memory: "1Gi" } } }, problems);
    expect(view.allocatable).to.deep.equal({ cpuMilli: 0, memoryBytes: 1024 ** 3 });
    expect(problems).to.have.length(1);
  });

  it("given empty providerID and systemUUID, leaves them out", () => {
    const view = toNodeView({ metadata: { name: "n3" }, spec: { providerID: "" }, status: { nodeInfo: { systemUUID: "" } } });
    expect(view).to.not.have.property("providerID");
    expect(view).to.not.have.property("systemUUID");
  });
});
