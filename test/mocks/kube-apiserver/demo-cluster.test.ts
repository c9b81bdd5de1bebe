import { expect } from "chai";
import { demoCluster } from "../../../mocks/kube-apiserver/demo-cluster.js";

describe("demoCluster", () => {
  it("given scenario VMs, makes one Node per worker VM with its providerID and size", () => {
    const c = demoCluster([
      { name: "k8s-worker-01", biosUuid: "42260125-1003-40d3-9061-000001f3a5c7", vcpus: 8, memoryMiB: 32768 },
      { name: "k8s-worker-02", vcpus: 4, memoryMiB: 16384 },
      { name: "vcsa", vcpus: 4, memoryMiB: 16384 },
    ]);
    expect(c.nodes.map((n) => n.metadata.name)).to.deep.equal(["k8s-worker-01", "k8s-worker-02"]);
    expect(c.nodes[0]?.spec.providerID).to.equal("vsphere://42260125-1003-40d3-9061-000001f3a5c7");
    expect(c.nodes[0]?.status.allocatable).to.include({ cpu: "7800m", memory: "31744Mi" });
    expect(c.pods.every((p) => ["k8s-worker-01", "k8s-worker-02"].includes(p.spec.nodeName))).to.equal(true);
    expect(c.namespaces.map((n) => n.metadata.name)).to.deep.equal(["kube-system", "shop"]);
  });
});
