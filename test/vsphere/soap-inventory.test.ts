import { expect } from "chai";
import { parseXml } from "../../src/vsphere/soap-envelope.js";
import { toSnapshot } from "../../src/vsphere/soap-inventory.js";
import type { ObjectProps } from "../../src/vsphere/soap-property-collector.js";

const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
/** One object as the PropertyCollector returns it; values are the `<val>` elements' inner XML and attributes. */
function obj(type: string, value: string, props: Record<string, string>): ObjectProps {
  const map = new Map(Object.entries(props).map(([path, xml]) => [path, parseXml(xml.startsWith("<") ? xml : `<val ${XSI}>${xml}</val>`)]));
  return { obj: { type, value }, props: map };
}

describe("toSnapshot (SOAP inventory into the Automation API's shapes)", () => {
  const snap = toSnapshot([
    obj("ClusterComputeResource", "domain-c8", { name: "prod-a" }),
    obj("HostSystem", "host-11", {
      name: "esx-01",
      parent: `<val ${XSI} xsi:type="ManagedObjectReference" type="ClusterComputeResource">domain-c8</val>`,
      "runtime.powerState": "standBy",
      "summary.runtime.connectionState": "notResponding",
      "summary.runtime.inMaintenanceMode": "true",
      "summary.hardware.memorySize": `<val ${XSI} xsi:type="xsd:long">549755813888</val>`,
    }),
    obj("HostSystem", "host-12", {
      name: "esx-02",
      parent: `<val ${XSI} xsi:type="ManagedObjectReference" type="ComputeResource">domain-s12</val>`,
      "summary.runtime.connectionState": "connected",
    }),
    obj("VirtualMachine", "vm-1", {
      name: "k8s-worker-01",
      "config.uuid": "4226A1B2-0000-1111-2222-333344445555",
      "config.instanceUuid": "5026A1B2-0000-1111-2222-333344445555",
      "config.hardware.numCPU": "4",
      "config.hardware.memoryMB": "16384",
      "runtime.powerState": "suspended",
      "runtime.host": `<val ${XSI} xsi:type="ManagedObjectReference" type="HostSystem">host-11</val>`,
    }),
    obj("VirtualMachine", "vm-2", { name: "being-created" }),
  ]);

  it("given a cluster, lists it by id and name", () => {
    expect(snap.clusters).to.deep.equal([{ cluster: "domain-c8", name: "prod-a" }]);
  });

  it("given vim25 enums, returns the Automation API's (standBy -> STANDBY, notResponding -> NOT_RESPONDING), bytes kept as bytes", () => {
    const h = snap.hosts.get("host-11")!;
    expect(h.host).to.deep.equal({ host: "host-11", name: "esx-01", connection_state: "NOT_RESPONDING", power_state: "STANDBY" });
    expect(h.clusterId).to.equal("domain-c8");
    expect(h.summary.runtime).to.deep.equal({ connectionState: "notResponding", inMaintenanceMode: true });
    expect(h.summary.hardware).to.deep.equal({ memorySize: 549755813888 });
  });

  it("given a standalone host (parent ComputeResource), has no cluster", () => {
    expect(snap.hosts.get("host-12")!.clusterId).to.equal(undefined);
  });

  it("given a VM, returns lower-case UUIDs, its host and SUSPENDED", () => {
    expect(snap.vms.get("vm-1")).to.deep.equal({
      vm: "vm-1",
      name: "k8s-worker-01",
      power_state: "SUSPENDED",
      cpu_count: 4,
      memory_size_MiB: 16384,
      hostId: "host-11",
      biosUuid: "4226a1b2-0000-1111-2222-333344445555",
      instanceUuid: "5026a1b2-0000-1111-2222-333344445555",
    });
  });

  it("given a VM without runtime (being created), leaves it out", () => {
    expect(snap.vms.has("vm-2")).to.equal(false);
  });
});
