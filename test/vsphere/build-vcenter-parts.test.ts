import { expect } from "chai";
import { Registry } from "prom-client";
import { configSchema } from "../../src/config/schema.js";
import { silentLogger } from "../../src/observability/logger.js";
import { buildVcenterParts } from "../../src/vsphere/build-vcenter-parts.js";
import { VcenterConfigError } from "../../src/vsphere/vcenter-config-error.js";

const vcenterOf = (vcenter: Record<string, unknown>) => configSchema.parse({ vcenter }).vcenter;

describe("buildVcenterParts", () => {
  const refusals: Array<{ name: string; vcenter: Record<string, unknown>; message: RegExp }> = [
    {
      name: "given no vcenter.url, refuses with a config error naming the key",
      vcenter: { username: "u", password: "p" },
      message: /vcenter\.url is required/,
    },
    {
      name: "given an unreadable vcenter.caFile, names the key and the error code",
      vcenter: { url: "https://vc.example:443", username: "u", password: "p", caFile: "/nonexistent/hvx-ca.pem" },
      message: /cannot read vcenter\.caFile \/nonexistent\/hvx-ca\.pem: ENOENT/,
    },
  ];
  for (const c of refusals) {
    it(c.name, () => {
      const registry = new Registry();
      expect(() => buildVcenterParts({ vcenter: vcenterOf(c.vcenter), log: silentLogger(), registry })).to.throw(
        VcenterConfigError,
        c.message,
      );
    });
  }

  it("given a vCenter, registers the poller metrics on the registry, unlabelled for one vCenter and labelled for a named one", async () => {
    const vcenter = vcenterOf({ url: "http://127.0.0.1:1", username: "u", password: "p" });
    const one = new Registry();
    buildVcenterParts({ vcenter, log: silentLogger(), registry: one }).http.close();
    expect(await one.getSingleMetricAsString("hvx_vcenter_host_failures_total")).to.not.include("vcenter=");
    const several = new Registry();
    buildVcenterParts({ vcenter, name: "vc01", log: silentLogger(), registry: several }).http.close();
    expect(await several.getSingleMetricAsString("hvx_vcenter_host_failures_total")).to.include('vcenter="vc01"');
  });
});
