import { expect } from "chai";
import { generateScenario } from "../../../mocks/vcenter/index.js";

describe("generateScenario", () => {
  it("given 200 hosts x 20 VMs, returns 200 hosts, 4000 VMs, 20 per host, in clusters of 32", () => {
    const s = generateScenario({ hosts: 200, vmsPerHost: 20 });
    expect(s.hosts).to.have.length(200);
    expect(s.vms).to.have.length(4000);
    expect(s.vms.filter((v) => v.host === "host-1000")).to.have.length(20);
    expect(s.clusters).to.have.length(7); // ceil(200 / 32)
    expect(new Set(s.vms.map((v) => v.biosUuid)).size).to.equal(4000);
  });

  it("given the same seed, returns the same scenario; another seed differs", () => {
    const a = generateScenario({ hosts: 10, vmsPerHost: 3, seed: 5 });
    expect(generateScenario({ hosts: 10, vmsPerHost: 3, seed: 5 })).to.deep.equal(a);
    expect(generateScenario({ hosts: 10, vmsPerHost: 3, seed: 6 })).not.to.deep.equal(a);
  });

  it("given negative or fractional sizes, throws RangeError", () => {
    expect(() => generateScenario({ hosts: -1, vmsPerHost: 2 })).to.throw(RangeError);
    expect(() => generateScenario({ hosts: 1, vmsPerHost: 1.5 })).to.throw(RangeError);
  });
});
