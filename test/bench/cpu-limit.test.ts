import { expect } from "chai";
import { wantedCpuLimit } from "../../bench/cpu-limit.js";

describe("the benchmark's CPU limit (HVX_BENCH_CPU_LIMIT)", () => {
  it("given nothing, confines nothing", () => {
    expect(wantedCpuLimit(undefined)).to.equal(undefined);
    expect(wantedCpuLimit("")).to.equal(undefined);
  });

  it("given manifest, returns the Deployment's limits.cpu; given a number, that many CPUs", () => {
    // manifests/base/deployment.yaml: limits.cpu "2"
    expect(wantedCpuLimit("manifest")).to.equal(2);
    expect(wantedCpuLimit("0.5")).to.equal(0.5);
  });

  for (const bad of ["none", "0", "-1", "1 CPU"])
    it(`given ${JSON.stringify(bad)}, says what it accepts`, () =>
      expect(() => wantedCpuLimit(bad)).to.throw(/HVX_BENCH_CPU_LIMIT must be "manifest" or a number of CPUs above 0/));
});
